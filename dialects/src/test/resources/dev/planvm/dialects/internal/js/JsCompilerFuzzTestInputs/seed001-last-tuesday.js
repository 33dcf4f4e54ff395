// Seed 001, "Aliases for SyncFunctions and Constants": date math with the context's helpers.
return last(Tuesday).plus(23, day).at('9:00am');
