// dialect-options: inputs=user
/**
 * A leading doc comment without @tool is a comment, as before: no header, and
 * @param {string} nobody - declares nothing.
 */
return orders({user: user});
