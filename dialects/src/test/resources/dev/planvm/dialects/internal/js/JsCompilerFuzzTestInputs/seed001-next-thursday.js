// Seed 001, "Aliases for SyncFunctions and Constants": date math with the context's helpers.
return next(Thursday).at('9:00am');
