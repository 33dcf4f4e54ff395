// Issue 24: flightInfo once for each flight of the list (one calling with for_each, concurrent).
flights = [{airline: 'AA', flight: 1234}, {airline: 'UA', flight: 5117}, {airline: 'DL', flight: 88}];
infos = flights.map(f => flightInfo({airline: f.airline, flight: f.flight}));
return {first: infos[0].departs, all: infos};
