// Line comments may come before the header; a header needs only @tool.
/** @tool ping */
return echo({text: 'pong'});
