// Seed 001's literals: numbers, booleans, undefined, strings, arrays, objects.
numbers = [1, -2, +3, 1.5, 0, 12345678901];
flags = [true, false, undefined, null];
strings = ['single', "double", 'it\'s', "tab\there", 'new\nline', '\u00e9\x41', 'has ${not a ref}'];
object = {a: 1, 'b c': 2, "d": [3], 4: 'four', nested: {deep: {deeper: true}}};
return {numbers, flags, strings, object, trailing: [1, 2,],};
