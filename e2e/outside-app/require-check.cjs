// CommonJS users: require() of each package from a .cjs file. On Node >= 20.19 and >= 22.12 a
// synchronous ES module can be required; older Node must fail with a clear error, never half-load.
// Prints one JSON line: [{ name, ok, exportCount | code, message }].
const names = JSON.parse(process.argv[2]);
const results = names.map((name) => {
  try {
    const loaded = require(name);
    return { name, ok: true, exportNames: Object.keys(loaded).filter((key) => key !== '__esModule').sort() };
  } catch (error) {
    return { name, ok: false, code: error.code, message: String(error.message).split('\n')[0] };
  }
});
console.log(JSON.stringify(results));
