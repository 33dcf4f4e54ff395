/**
 * The status of a flight,
 * with its gate.
 *
 * @tool flight_status
 * @param {string} flight - the flight number
 * @param {integer} [days=1] - how many days to look at
 * @param {string[]|null} [airlines] which airlines
 * @returns {object} the status
 *   of the flight
 */
const status = flights({flight: flight, days: days, airlines: airlines});
return status;
