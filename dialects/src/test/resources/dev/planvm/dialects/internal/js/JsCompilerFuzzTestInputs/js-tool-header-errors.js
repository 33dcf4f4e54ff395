/**
 * A malformed header: each problem at its line.
 * @tool bad name
 * @param {date} when - an unknown type
 * @param {string} a.b - not a name
 * @param string city
 * @param {string} twice
 * @param {number} twice
 * @returns {string} one
 * @returns {string} two
 * @example calls are not tags of a header
 */
return weather({city: city});
