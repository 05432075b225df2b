import { loadConfig } from '../config.ts';
import { BackupError, readCommandLine, runBackupCommand } from '../backup/archive.ts';
import { restoreBackup } from '../backup/restore.ts';

// `npm run db:restore -- FILE`: puts back an archive of `npm run db:backup`, database and files, into
// an empty data directory or PostgreSQL database, with no server running on it.
const USAGE = [
  'Usage: npm run db:restore -- [--replace] FILE',
  '  --replace   embedded database: move the database and uploads already in DATA_DIR aside first',
].join('\n');

await runBackupCommand('restore', async () => {
  const { values, positionals } = readCommandLine({ replace: { type: 'boolean', default: false } }, USAGE);
  if (positionals.length !== 1) throw new BackupError(USAGE);
  await restoreBackup(loadConfig(), positionals[0]!, { replace: values.replace });
});
