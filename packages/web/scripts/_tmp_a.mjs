import { analyseBrowserBundle } from './bundle.mjs';
import { gzipSync } from 'node:zlib';
const { code, inputs } = await analyseBrowserBundle();
console.log('min', Buffer.byteLength(code), 'gzip', gzipSync(code, { level: 9 }).length);
console.log(Object.entries(inputs).sort((a,b)=>b[1]-a[1]).slice(0,25).map(([p,b])=>b+' '+p.replace(/.*node_modules\//,'')).join('\n'));
