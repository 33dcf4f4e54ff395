// dialect-options: tools=weather
// The seed's security rules: no eval, no prototype names, no property of a function.
a = eval('1');
b = Function('return 1');
c = weather.city;
d = weather;
e = {__proto__: 1};
f = data.constructor;
g = data['prototype'];
h = data.toString;
i = len;
data = {x: 1};
return [a, b, c, d, e, f, g, h, i];
