/**
 * A default is JSON only when its whole text is: "42 apples" and "3 or 4" are text.
 *
 * @tool defaults
 * @param {string} [note=42 apples] - a text that starts like a number
 * @param {any} [size=3 or 4] - another
 * @param {integer} [count=3] - a number
 */
const final_answer = [note, size, count];
return final_answer;
