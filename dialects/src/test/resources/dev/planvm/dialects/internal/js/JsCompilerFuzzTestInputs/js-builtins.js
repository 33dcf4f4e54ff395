// planvm's builtins are the synchronous functions; they are never tool calls.
items = search({q: 'x'}).items;
return {count: len(items), first: upper(items[0]), all: join(items, ', '), bad: len(items, 2)};
