// What map refuses, each with its place.
items = search({q: 'x'});
a = items.map(upper);
b = items.map(x => upper(x));
c = items.map(x => fetch({url: resolve({id: x}).url}));
d = items.map(index => fetch({at: index}));
e = items.map(fetch, 2);
f = x => fetch({x});
g = items.map(x => x.map(y => fetch({y})));
return [a, b, c, d, e, f, g];
