import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// After `react-router build`: a brotli (.br) and a gzip (.gz) copy of every text file of the client
// build, at the strongest settings, so the server sends them as they are (no compression per request).
const root = path.resolve(import.meta.dirname, '../build/client');
const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
const MIN_BYTES = 512;

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(root)) {
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  count += 1;
  before += body.length;
  after += br.length;
}
console.log(`precompressed ${count} files: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB as brotli`);
