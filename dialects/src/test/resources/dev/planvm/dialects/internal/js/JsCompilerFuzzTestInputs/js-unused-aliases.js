// Aliases no expression of the result reads are not compiled (so never called).
used = search({q: 'used'});
unused = search({q: 'never called'});
alsoUnused = unused.items;
return used;
