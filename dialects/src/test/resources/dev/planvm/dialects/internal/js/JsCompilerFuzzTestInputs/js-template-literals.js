// Template literals become interpolated strings; inside an expression, concatenation.
name = 'planvm';
n = 3;
greeting = `Hello ${name}!`;
only = `${n}`;
plain = `no substitutions`;
price = `US$${n}`;
nested = [`a ${`b ${name}`} c`];
multiline = `line one
line two ${name}`;
return search({q: greeting, only, plain, price, nested, multiline, list: [`${name}-${n}`]});
