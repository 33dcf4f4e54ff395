// Each element: one call per element of a list, concurrently (a calling with for_each).
cities = geocode({region: 'Nordics'}).cities;
forecasts = cities.map(city => weather({city: city.name, days: 3}));
pages = ['https://a.example', 'https://b.example'].map(fetch);
return {forecasts, pages, names: search({q: 'x'}).items.map((it) => lookup({id: it.id}))};
