// Seed 001, "Semantics of Function Calls": one call with one argument that is not an object
// literal, so the tool gets {"args": ["hello"]}.
return domainA('hello');
