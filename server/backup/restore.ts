import fs from 'node:fs';
import path from 'node:path';
import { embeddedDataPath } from '../../db/client.ts';
import { acquireDirectoryLock } from '../../db/lock.ts';
import type { Config } from '../config.ts';
import { createStorage } from '../files/create-storage.ts';
import {
  archivedFilePath,
  BackupError,
  BUCKET_TRANSFERS_AT_ONCE,
  checkArchiveContents,
  DATABASE_ENTRY,
  eachWithLimit,
  extractArchive,
  FILES_FOLDER,
  isPlainKey,
  loadEmbeddedDump,
  newerVersionWarning,
  readDatabaseFacts,
  requireArchiveFile,
  utcStamp,
  type DatabaseFacts,
  type Manifest,
} from './archive.ts';
import { connectForBackup, runPostgresTool } from './postgres-tools.ts';

const isArchiveLayout = (entry: string) => entry.startsWith('database/') || entry.startsWith(`${FILES_FOLDER}/`);

/**
 * Restores an archive of `db:backup` (or a bare PGlite dump from its first version) into the
 * configured database and file store. The archive is unpacked inside DATA_DIR, so its files are
 * moved into DATA_DIR/uploads rather than copied.
 */
export async function restoreBackup(config: Config, archive: string, options: { replace: boolean }): Promise<void> {
  requireArchiveFile(archive);
  if (config.databaseUrl) await restorePostgres(config, config.databaseUrl, archive);
  else await restoreEmbedded(config, archive, options.replace);
}

/**
 * Into a data directory with no database and no uploads, and no server running (the lock refuses
 * otherwise). `--replace` moves what is there into DATA_DIR/before-restore-<time>/ first; nothing
 * is deleted.
 */
async function restoreEmbedded(config: Config, archive: string, replace: boolean): Promise<void> {
  const lock = acquireDirectoryLock(config.dataDir, 'restore');
  const dataPath = embeddedDataPath(config.dataDir);
  const restoring = `${dataPath}.restoring`;
  const uploadsDir = path.join(config.dataDir, 'uploads');
  let staging: string | undefined;
  try {
    refuseToOverwrite([dataPath], replace);
    staging = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
    const { manifest, sizes } = await extractArchive(archive, staging, isArchiveLayout);
    if (manifest?.database === 'postgres') {
      throw new BackupError(`${archive} holds a PostgreSQL database: set DATABASE_URL to an empty PostgreSQL database to restore it.`);
    }
    if (manifest) checkArchiveContents({ manifest, sizes }, archive);
    const filesToDisk = manifest !== undefined && manifest.files !== 'none' && !config.s3;
    const occupied = [dataPath, ...(filesToDisk ? [uploadsDir] : [])].filter(holdsAnything);
    refuseToOverwrite(occupied, replace);

    fs.rmSync(restoring, { recursive: true, force: true });
    const restored = await loadEmbeddedDump(
      await fs.openAsBlob(manifest ? path.join(staging, DATABASE_ENTRY.embedded) : archive),
      restoring,
    );
    let facts: DatabaseFacts;
    try {
      facts = await readDatabaseFacts((text) => restored.query(text));
    } finally {
      await restored.close();
    }
    if (occupied.length > 0) console.log(`Moved the data that was there to ${moveAside(occupied, config.dataDir)}.`);
    fs.renameSync(restoring, dataPath);
    const files = manifest ? await restoreFiles(config, manifest, staging) : 'none (an old backup: database only)';
    reportRestored(facts, `the embedded database in ${dataPath}`, files, manifest);
  } finally {
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(restoring, { recursive: true, force: true });
    lock.release();
  }
}

/** Into an empty PostgreSQL database: one that already holds the site's tables is refused. */
async function restorePostgres(config: Config, databaseUrl: string, archive: string): Promise<void> {
  const client = await connectForBackup(databaseUrl);
  fs.mkdirSync(config.dataDir, { recursive: true });
  let staging: string | undefined;
  try {
    const { rows } = await client.query<{ taken: boolean }>(
      `select to_regclass('public.members') is not null or to_regclass('drizzle.__drizzle_migrations') is not null as taken`,
    );
    if (rows[0]!.taken) {
      throw new BackupError(
        'The database in DATABASE_URL already holds the site. Restore into an empty database (createdb NAME), then point DATABASE_URL at it.',
      );
    }
    staging = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
    const { manifest, sizes } = await extractArchive(archive, staging, isArchiveLayout);
    if (manifest?.database !== 'postgres') {
      throw new BackupError(`${archive} holds an embedded database: restore it with DATABASE_URL unset (the embedded database).`);
    }
    checkArchiveContents({ manifest, sizes }, archive);
    await runPostgresTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', path.join(staging, DATABASE_ENTRY.postgres)], {
      databaseUrl,
      ifItFails: '\nThe database may now be partly restored: drop it and create it again before trying again.',
    });
    const facts = await readDatabaseFacts((text) => client.query(text));
    const files = await restoreFiles(config, manifest, staging);
    reportRestored(facts, 'the PostgreSQL database in DATABASE_URL', files, manifest);
  } finally {
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
    await client.end();
  }
}

/** Puts the archived files where this site keeps them: into the bucket, or moved into DATA_DIR/uploads. Same keys are overwritten. */
async function restoreFiles(config: Config, manifest: Manifest, staging: string): Promise<string> {
  if (manifest.files === 'none') return 'none: they stayed in the bucket (the backup was written without --include-files)';
  const files = manifest.file_list.filter((file) => isPlainKey(file.key));
  const unpacked = (key: string) => path.join(staging, archivedFilePath(key));
  if (config.s3) {
    const storage = createStorage(config);
    // Sent as a Buffer, as the site sends an upload: not every S3-compatible store reads the SDK's chunked streams.
    await eachWithLimit(files, BUCKET_TRANSFERS_AT_ONCE, async (file) =>
      storage.put(file.key, await fs.promises.readFile(unpacked(file.key)), file.content_type),
    );
    return `${files.length} uploaded to the bucket ${config.s3.bucket}`;
  }
  const uploadsDir = path.join(config.dataDir, 'uploads');
  for (const file of files) {
    const destination = path.join(uploadsDir, file.key);
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    fs.renameSync(unpacked(file.key), destination);
  }
  return `${files.length} written to ${uploadsDir}`;
}

function reportRestored(facts: DatabaseFacts, where: string, files: string, manifest: Manifest | undefined): void {
  console.log(`Restored ${where}: ${facts.members} members, ${facts.uploadedFiles} uploaded files, ${facts.migrations} migrations.`);
  console.log(`  Files: ${files}.`);
  const warning = manifest && newerVersionWarning(manifest);
  if (warning) console.warn(warning);
}

function holdsAnything(folder: string): boolean {
  return fs.existsSync(folder) && fs.readdirSync(folder).length > 0;
}

function refuseToOverwrite(occupied: string[], replace: boolean): void {
  const taken = occupied.filter(holdsAnything);
  if (taken.length === 0 || replace) return;
  throw new BackupError(
    `${taken.join(' and ')} already ${taken.length > 1 ? 'hold' : 'holds'} data. Restore into an empty DATA_DIR, ` +
      'or add --replace to move what is there into DATA_DIR/before-restore-<time>/ first.',
  );
}

function moveAside(occupied: string[], dataDir: string): string {
  const aside = path.join(dataDir, `before-restore-${utcStamp()}`);
  fs.mkdirSync(aside);
  for (const folder of occupied) fs.renameSync(folder, path.join(aside, path.basename(folder)));
  return aside;
}
