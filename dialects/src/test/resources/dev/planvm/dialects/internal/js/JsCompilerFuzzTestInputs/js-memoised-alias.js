// An alias is evaluated once, however often it is read: one flightInfo call.
flight = flightInfo({airline: 'AA', flight: 1234});
return [flight.departs, flight.arrives, flight.origin];
