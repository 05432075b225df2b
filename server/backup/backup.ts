import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { embeddedDataPath, openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { DatabaseLockedError } from '../../db/lock.ts';
import type { Config } from '../config.ts';
import { createStorage } from '../files/create-storage.ts';
import {
  BackupError,
  BUCKET_TRANSFERS_AT_ONCE,
  DATABASE_ENTRY,
  describeSize,
  eachWithLimit,
  factsOfEmbeddedDump,
  FILES_FOLDER,
  isPlainKey,
  MANIFEST_ENTRY,
  readDatabaseFacts,
  utcStamp,
  type ArchivedFile,
  type DatabaseFacts,
  type Manifest,
} from './archive.ts';
import { connectForBackup, runPostgresTool } from './postgres-tools.ts';
import { controlSocketPath, requestDumpFromServer } from './server-dump.ts';

/**
 * Writes one archive of the database and the uploaded files (decision 012), while the site runs.
 * Everything is gathered in a folder inside DATA_DIR first, so the uploads are hard-linked, not copied.
 */
export async function createBackup(config: Config, options: { target: string | undefined; includeFiles: boolean }): Promise<void> {
  const target = path.resolve(options.target ?? path.join(config.dataDir, 'backups', `backup-${utcStamp()}.tar.gz`));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(config.dataDir, '.backup-'));
  try {
    fs.mkdirSync(path.join(staging, 'database'));
    const kind = config.databaseUrl ? 'postgres' : 'embedded';
    const dumpPath = path.join(staging, DATABASE_ENTRY[kind]);
    const dumpedAt = new Date();
    let facts: DatabaseFacts;
    if (config.databaseUrl) {
      facts = await dumpPostgres(config.databaseUrl, dumpPath);
    } else {
      await dumpEmbedded(config.dataDir, dumpPath);
      facts = await factsOfEmbeddedDump(dumpPath);
    }

    // The files are read after the dump: one deleted meanwhile may be missing; one uploaded meanwhile has no row in the dump.
    const filesDir = path.join(staging, FILES_FOLDER);
    const files: Manifest['files'] = config.s3 ? (options.includeFiles ? 's3' : 'none') : 'local';
    let fileList: ArchivedFile[] = [];
    if (files === 'local') fileList = linkLocalUploads(path.join(config.dataDir, 'uploads'), filesDir, facts);
    if (files === 's3') fileList = await downloadBucketFiles(config, filesDir, facts);
    fileList.sort((a, b) => a.key.localeCompare(b.key));

    const manifest: Manifest = {
      format_version: 1,
      created_at: dumpedAt.toISOString(),
      database: kind,
      migrations: facts.migrations,
      members: facts.members,
      uploaded_files: facts.uploadedFiles,
      files,
      file_list: fileList,
    };
    fs.writeFileSync(path.join(staging, MANIFEST_ENTRY), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeArchive(staging, target, fileList.length > 0 ? [MANIFEST_ENTRY, 'database', FILES_FOLDER] : [MANIFEST_ENTRY, 'database']);

    const bytes = fileList.reduce((sum, file) => sum + file.size, 0);
    console.log(`Backup written to ${target} (${describeSize(fs.statSync(target).size)}).`);
    console.log(
      `  ${kind === 'embedded' ? 'Embedded' : 'PostgreSQL'} database: ${facts.migrations} migrations, ${facts.members} members, ${facts.uploadedFiles} uploaded files.`,
    );
    if (files === 'none') {
      console.log(`  The files in the bucket ${config.s3!.bucket} are NOT in this backup: add --include-files to download them into it.`);
    } else {
      console.log(
        `  ${fileList.length} files (${describeSize(bytes)}) from ${files === 's3' ? `the bucket ${config.s3!.bucket}` : 'DATA_DIR/uploads'}.`,
      );
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Dumps the embedded database: opened here when no server runs, else written by the server that holds it. */
async function dumpEmbedded(dataDir: string, dumpPath: string): Promise<void> {
  if (!fs.existsSync(embeddedDataPath(dataDir))) {
    throw new BackupError(`There is no database in ${embeddedDataPath(dataDir)} to back up: check DATA_DIR.`);
  }
  let database: DatabaseHandle;
  try {
    database = await openDatabase({ kind: 'embedded', dataDir, purpose: 'backup' });
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    if (!fs.existsSync(controlSocketPath(dataDir))) {
      throw new BackupError(
        `${error.message}\nIt does not answer on ${controlSocketPath(dataDir)}, so it cannot write the dump while it runs ` +
          '(a server started before online backups, or another command). Restart that server, or wait for the command to finish.',
      );
    }
    await requestDumpFromServer(dataDir, dumpPath);
    return;
  }
  try {
    fs.writeFileSync(dumpPath, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
  } finally {
    await database.close();
  }
}

/**
 * pg_dump reads the snapshot this transaction exports, so the counts and file keys read here
 * describe exactly the data it dumped.
 */
async function dumpPostgres(databaseUrl: string, dumpPath: string): Promise<DatabaseFacts> {
  const client = await connectForBackup(databaseUrl);
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    await runPostgresTool(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${rows[0]!.snapshot}`, `--file=${dumpPath}`],
      { databaseUrl },
    );
    const facts = await readDatabaseFacts((text) => client.query(text));
    await client.query('commit');
    return facts;
  } finally {
    await client.end();
  }
}

/**
 * Every file under DATA_DIR/uploads but those being written (`*.partial`), hard-linked: the server
 * replaces a file by renaming a new one over it, never by writing into it, so a link is a snapshot.
 */
function linkLocalUploads(uploadsDir: string, filesDir: string, facts: DatabaseFacts): ArchivedFile[] {
  if (!fs.existsSync(uploadsDir)) return [];
  const contentTypes = new Map(facts.storedFiles.map((file) => [file.key, file.contentType]));
  const archived: ArchivedFile[] = [];
  for (const entry of fs.readdirSync(uploadsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.partial')) continue;
    const source = path.join(entry.parentPath, entry.name);
    const key = path.relative(uploadsDir, source).split(path.sep).join('/');
    const copy = path.join(filesDir, key);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    try {
      linkOrCopy(source, copy);
    } catch (error) {
      // Deleted since the folder was listed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    archived.push({ key, size: fs.statSync(copy).size, content_type: contentTypes.get(key) ?? 'application/octet-stream' });
  }
  return archived;
}

function linkOrCopy(source: string, copy: string): void {
  try {
    fs.linkSync(source, copy);
  } catch (error) {
    // Uploads on a disk of their own, or a file system without hard links.
    if (!['EXDEV', 'EPERM', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    fs.copyFileSync(source, copy);
  }
}

/** Every object the database points at, downloaded through the site's storage. */
async function downloadBucketFiles(config: Config, filesDir: string, facts: DatabaseFacts): Promise<ArchivedFile[]> {
  const storage = createStorage(config);
  const wanted = [...new Map(facts.storedFiles.filter((file) => isPlainKey(file.key)).map((file) => [file.key, file])).values()];
  const archived: ArchivedFile[] = [];
  const missing: string[] = [];
  await eachWithLimit(wanted, BUCKET_TRANSFERS_AT_ONCE, async (file) => {
    const body = await storage.get(file.key);
    if (!body) {
      missing.push(file.key);
      return;
    }
    const copy = path.join(filesDir, file.key);
    await fs.promises.mkdir(path.dirname(copy), { recursive: true });
    await pipeline(body, fs.createWriteStream(copy));
    archived.push({ key: file.key, size: (await fs.promises.stat(copy)).size, content_type: file.contentType });
  });
  if (missing.length > 0) {
    console.warn(
      `Warning: ${missing.length} files the database lists are not in the bucket, so not in the backup: ${missing.slice(0, 5).join(', ')}`,
    );
  }
  return archived;
}

/** Written under another name and renamed once complete: a backup cut short never looks like a good one. */
async function writeArchive(staging: string, target: string, entries: string[]): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const draft = `${target}.partial`;
  try {
    await tar.c({ gzip: true, file: draft, cwd: staging, portable: true }, entries);
    const descriptor = fs.openSync(draft, 'r');
    try {
      fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
    fs.renameSync(draft, target);
  } catch (error) {
    fs.rmSync(draft, { force: true });
    throw error;
  }
}
