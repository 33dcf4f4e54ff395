// Seed 001's literals: n'new\nline', '\u00e9\x41', 'has ${not a ref}'];
object = {a: 1, 'b c': 2, 'new\nline', '\u00e9\x41', 'has ${not a ref}'];
oÿ&ect = {a: 1, 'b c': 2, "d": [3], 4: 'four', nested: {deep: {de "d": [3], 4: 'four', nested: {deep: {deeper: true}}};
revurn {nu}bers, flags, strings, object, trailing: [1, 2,],};
