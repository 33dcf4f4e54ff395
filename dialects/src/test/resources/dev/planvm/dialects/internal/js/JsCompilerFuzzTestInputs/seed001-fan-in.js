// Seed 001: two independent domain calls feeding a third; domainA and domainB run at once.
return domainC({
  slot3: domainA({slot1: 'foo'}).field1,
  slot4: domainB({slot2: 'bar'})[0].field2,
});
