// Issue 24: the function given to map may name the element's index too (for_each's index).
flights = [{airline: 'AA', flight: 1234}, {airline: 'UA', flight: 5117}];
infos = flights.map((f, n) => flightInfo({airline: f.airline, flight: f.flight, leg: n}));
return infos;
