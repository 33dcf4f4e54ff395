// The function given to map may name the element's index too: bound to for_each's index.
pages = ['https://a.example', 'https://b.example'].map((url, i) => fetch({url, at: i, label: `page ${i}: ${url}`}));
ranked = search({q: 'x'}).items.map((it, index) => score({id: it.id, rank: index}));
return {pages, ranked};
