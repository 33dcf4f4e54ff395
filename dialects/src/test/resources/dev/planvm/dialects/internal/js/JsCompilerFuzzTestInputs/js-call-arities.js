// One object-literal argument is the params; any other arguments are {"args": [...]}.
city = 'Oslo';
options = {units: 'metric'};
none = clock();
one = weather({city: city});
shorthand = weather({city});
positional = weather('Oslo', 3);
notLiteral = weather(options);
return [none, one, shorthand, positional, notLiteral];
