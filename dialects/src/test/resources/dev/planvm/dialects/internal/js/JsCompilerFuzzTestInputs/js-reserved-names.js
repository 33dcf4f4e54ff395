// Aliases shadow the context (a date/time constant here), but never JavaScript's keywords.
today = 'Monday';
class = 1;
return today;
