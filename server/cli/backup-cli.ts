import { loadConfig } from '../config.ts';
import { BackupError, readCommandLine, runBackupCommand } from '../backup/archive.ts';
import { createBackup } from '../backup/backup.ts';
import { verifyBackup } from '../backup/verify.ts';

// `npm run db:backup [-- FILE]`: the database and the uploaded files in one archive, while the site
// runs (docs/decisions/012-online-backups.md). Restore with `npm run db:restore -- FILE`.
const USAGE = [
  'Usage: npm run db:backup -- [--include-files] [FILE]   write a backup (default DATA_DIR/backups/backup-<time>.tar.gz)',
  '       npm run db:backup -- --verify FILE             check a backup, restoring nothing',
  '  --include-files   with S3_BUCKET: download the files in the bucket into the backup too',
].join('\n');

await runBackupCommand('backup', async () => {
  const { values, positionals } = readCommandLine(
    { 'include-files': { type: 'boolean', default: false }, verify: { type: 'boolean', default: false } },
    USAGE,
  );
  if (positionals.length > 1 || (values.verify && positionals.length !== 1)) throw new BackupError(USAGE);
  if (values.verify) await verifyBackup(positionals[0]!);
  else await createBackup(loadConfig(), { target: positionals[0], includeFiles: values['include-files'] });
});
