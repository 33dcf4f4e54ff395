// What map refuses of a function's parameters, each with its place.
items = search({q: 'x'});
a = items.map((x, i, all) => fetch({x, i}));
b = items.map(({url}) => fetch({url}));
c = items.map(([first, second]) => fetch({first}));
d = items.map((x, {at}) => fetch({x, at}));
e = items.map((x, x) => fetch({x}));
f = items.map((index, i) => fetch({i}));
return [a, b, c, d, e, f];
