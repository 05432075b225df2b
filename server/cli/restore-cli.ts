import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError, loadConfig } from '../config.ts';
import { embeddedDataPath } from '../../db/client.ts';
import { acquireDirectoryLock, DatabaseLockedError } from '../../db/lock.ts';

// `npm run db:restore -- backup.tar.gz`: replaces the embedded database with a backup.
// The current data directory is kept beside it, renamed, in case the restore was a mistake.
const source = process.argv[2];
try {
  if (!source || !fs.existsSync(source)) throw new ConfigError('Usage: npm run db:restore -- <backup file written by db:backup>');
  const config = loadConfig();
  if (config.databaseUrl) throw new ConfigError('DATABASE_URL is set: restore PostgreSQL with pg_restore instead.');
  const lock = acquireDirectoryLock(config.dataDir, 'restore');
  try {
    const dataPath = embeddedDataPath(config.dataDir);
    const blob = new Blob([fs.readFileSync(path.resolve(source))]);
    const staging = `${dataPath}.restoring`;
    fs.rmSync(staging, { recursive: true, force: true });
    const restored = await PGlite.create(staging, { loadDataDir: blob });
    await restored.query('select 1');
    await restored.close();
    if (fs.existsSync(dataPath)) fs.renameSync(dataPath, `${dataPath}.before-restore-${Date.now()}`);
    fs.renameSync(staging, dataPath);
    console.log(`Restored ${source} into ${dataPath}`);
  } finally {
    lock.release();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DatabaseLockedError ? error.message : error);
  process.exitCode = 1;
}
