// Calls nested in arguments run first, into temporaries; independent ones can run at once.
return summarize({text: translate({text: fetch({url: 'https://example.org'}).body, to: 'en'}).text,
                  style: styleguide({}).default});
