// Seed 001, "Aliases for Common Subexpression": flightInfo is called once, its result read twice.
flight = flightInfo({airline: 'AA', flight: 1234});
return other({start: flight.departs, end: flight.arrives});
