/* Semicolons may be left out at line ends; const, let and var are accepted (and mean nothing
   more than an alias). */
const a = search({q: 'one'})
let b = search({q: 'two'})   // trailing comment
var c = [a, b]
return c
