// The names each package exports to ESM importers, to compare with what require() gives.
const names = JSON.parse(process.argv[2]);
const results = [];
for (const name of names) {
  const loaded = await import(name);
  results.push({ name, exportNames: Object.keys(loaded).filter((key) => key !== 'default').sort() });
}
console.log(JSON.stringify(results));
