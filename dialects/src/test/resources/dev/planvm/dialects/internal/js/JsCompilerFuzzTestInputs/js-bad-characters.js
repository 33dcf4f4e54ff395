a = 1 # 2;
b = $x;
c = 'é' ;
d = 5é;
return [a, b, c, d];
