import fs from 'node:fs';
import path from 'node:path';
import { runDatabaseCommand } from './cli.ts';

// `npm run db:backup [-- file.tar.gz]`: a restorable copy of the embedded database.
// Restore with `npm run db:restore -- file.tar.gz` on a stopped server.
await runDatabaseCommand('backup', async (database, config) => {
  if (!database.dumpDataDir) {
    console.error('DATABASE_URL points at PostgreSQL: back it up with pg_dump, for example `pg_dump -Fc "$DATABASE_URL" > backup.dump`.');
    process.exitCode = 1;
    return;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups', `database-${stamp}.tar.gz`));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const dump = await database.dumpDataDir();
  fs.writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
  console.log(`Backup written to ${target}`);
});
