import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const packagesDir = '/work/wt/bundle/packages/';
const ext = process.argv.slice(2);
const plugin = { name: 'ws', setup(b) { b.onResolve({ filter: /^@askseam\/[a-z-]+$/ }, (a) => ({ path: `${packagesDir}${a.path.slice(9)}/src/index.ts` })); } };
const r = await build({ entryPoints: [packagesDir + 'web/src/browser.ts'], bundle: true, format: 'esm', platform: 'browser', target: ['es2022','chrome111','firefox113','safari16.4'], minify: true, write: false, plugins: [plugin], logLevel: 'silent', outfile: '/tmp/x.js', external: ext });
const js = r.outputFiles.find(f => f.path.endsWith('.js'));
console.log(ext.join(','), 'min', js.contents.length, 'gzip', gzipSync(js.contents, { level: 9 }).length);
