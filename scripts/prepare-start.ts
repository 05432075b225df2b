import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// After `react-router build`, what makes a start quick (docs/decisions/021):
// 1. the compile cache server/main.ts reads, filled by loading the server's modules and pages once;
// 2. an embedded database with every migration applied (build/embedded-database): a first start on
//    an empty data directory copies it instead of creating a cluster (initdb) and running every migration.
const { enableCompileCache, resolveDrizzleQuickly } = await import('../server/module-loading.ts');
enableCompileCache();
resolveDrizzleQuickly();
const started = performance.now();
await import('../server/runtime.ts');
// The pages' server build, which the server loads when it registers the pages.
await import(new URL('../build/server/index.js', import.meta.url).href);

const { EMBEDDED_SNAPSHOT_DIR, embeddedDataPath, openDatabase } = await import('../db/client.ts');
// Made in a folder of its own (a data directory with its lock), then moved into place whole.
fs.rmSync(EMBEDDED_SNAPSHOT_DIR, { recursive: true, force: true });
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-snapshot-'));
try {
  const database = await openDatabase({ kind: 'embedded', dataDir: workDir, purpose: 'npm run build' });
  try {
    await database.migrate();
  } finally {
    // A clean shutdown: the copy opens without replaying anything.
    await database.close();
  }
  fs.cpSync(embeddedDataPath(workDir), EMBEDDED_SNAPSHOT_DIR, { recursive: true });
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
module.flushCompileCache?.();
console.log(`prepared the start: modules compiled, a migrated embedded database, in ${Math.round(performance.now() - started)} ms`);
