a = 1;
return a;
b = 2;
