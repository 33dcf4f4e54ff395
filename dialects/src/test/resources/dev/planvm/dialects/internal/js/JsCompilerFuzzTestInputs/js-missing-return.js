// A plan ends with one return.
a = search({q: 'x'});
