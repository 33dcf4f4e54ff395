// Values have no methods; only the date/time helpers do.
items = search({q: 'x'});
return items.map(format);
