a = f({x: b});
b = g({y: c});
c = h({z: a});
return a;
