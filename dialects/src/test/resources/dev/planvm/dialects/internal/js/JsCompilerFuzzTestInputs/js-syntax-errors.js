// Each statement's syntax error is reported; the parser goes on with the next statement.
a = 1 + 2;
b 5;
c = 'unterminated;
d = await fetch();
if (a) { b = 1; }
e = [1, 2;
f = 0123;
g = 0x1F;
h = a ? b : c;
return a;
