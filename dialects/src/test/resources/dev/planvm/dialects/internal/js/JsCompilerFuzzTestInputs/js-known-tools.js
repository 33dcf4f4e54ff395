// dialect-options: tools=weather|web:search
// With the tools known, a tool named web:search is called web_search, and an unknown function is an error.
w = weather({city: 'Oslo'});
s = web_search({q: 'planvm'});
x = wether({city: 'Oslo'});
y = fetch({url: 'x'});
return [w, s, x, y];
