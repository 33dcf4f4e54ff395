a = 1;
b = a(2);
c = search({})(3);
d = Thursday(1);
return [b, c, d];
