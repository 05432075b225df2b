import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import * as tar from 'tar';
import { z } from 'zod';
import { EMBEDDED_EXTENSIONS } from '../../db/client.ts';
import { DatabaseLockedError } from '../../db/lock.ts';
import { ConfigError } from '../config.ts';

// What `npm run db:backup` writes: one gzipped tar, manifest first, then the database, then the files.
export const MANIFEST_ENTRY = 'manifest.json';
export const DATABASE_ENTRY = { embedded: 'database/pglite.tar.gz', postgres: 'database/postgres.dump' } as const;
export const FILES_FOLDER = 'files';

/** A failure the person running the command can act on: printed as it is, without a stack. */
export class BackupError extends Error {}

const ManifestSchema = z.object({
  format_version: z.literal(1),
  created_at: z.iso.datetime(),
  database: z.enum(['embedded', 'postgres']),
  /** Migrations applied to the database when it was dumped. */
  migrations: z.number().int().nonnegative(),
  members: z.number().int().nonnegative(),
  uploaded_files: z.number().int().nonnegative(),
  /** Where the files came from: the server's disk, the bucket (--include-files), or not in the archive. */
  files: z.enum(['local', 's3', 'none']),
  file_list: z.array(z.object({ key: z.string().min(1), size: z.number().int().nonnegative(), content_type: z.string() })),
});
export type Manifest = z.infer<typeof ManifestSchema>;
export type ArchivedFile = Manifest['file_list'][number];

/** What the database holds, read from the same snapshot that was dumped. */
export interface DatabaseFacts {
  migrations: number;
  members: number;
  uploadedFiles: number;
  /** Every storage key the database points at (originals and image variants), with its type. */
  storedFiles: { key: string; contentType: string }[];
}

/** `query` of a PGlite or a pg.Client: both answer `{ rows }`. */
type Query = (text: string) => Promise<{ rows: unknown[] }>;

export async function readDatabaseFacts(query: Query): Promise<DatabaseFacts> {
  const [{ ready }] = (
    await query(`select to_regclass('members') is not null and to_regclass('drizzle.__drizzle_migrations') is not null as ready`)
  ).rows as [{ ready: boolean }];
  if (!ready) throw new BackupError("The database holds none of the site's tables yet: start the server once, or run npm run db:migrate.");
  const [counts] = (
    await query(
      `select (select count(*)::int from members) as members,
              (select count(*)::int from uploaded_files) as uploaded_files,
              (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
    )
  ).rows as { members: number; uploaded_files: number; migrations: number }[];
  const files = (await query('select storage_key, content_type, variants from uploaded_files')).rows as {
    storage_key: string;
    content_type: string;
    variants: { key: string }[];
  }[];
  return {
    migrations: counts!.migrations,
    members: counts!.members,
    uploadedFiles: counts!.uploaded_files,
    storedFiles: files.flatMap((file) => [
      { key: file.storage_key, contentType: file.content_type },
      ...file.variants.map((variant) => ({ key: variant.key, contentType: 'image/webp' })),
    ]),
  };
}

/** Opens a PGlite dump: in memory, or written to `dataPath` when restoring. */
export async function loadEmbeddedDump(dump: Blob, dataPath?: string): Promise<PGlite> {
  const options = { loadDataDir: dump, extensions: EMBEDDED_EXTENSIONS };
  try {
    const database = dataPath ? await PGlite.create(dataPath, options) : await PGlite.create(options);
    await database.query('select 1');
    return database;
  } catch (error) {
    throw new BackupError(`The embedded database in the backup cannot be opened (${(error as Error).message}).`);
  }
}

/** Reads the facts of a PGlite dump from a throwaway in-memory copy, which also proves the dump opens. */
export async function factsOfEmbeddedDump(dumpPath: string): Promise<DatabaseFacts> {
  const copy = await loadEmbeddedDump(await fs.openAsBlob(dumpPath));
  try {
    return await readDatabaseFacts((text) => copy.query(text));
  } finally {
    await copy.close();
  }
}

// The count of migrations this code knows, to notice a backup written by a newer version.
const KNOWN_MIGRATIONS = (
  JSON.parse(
    fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: unknown[] }
).entries.length;

export function newerVersionWarning(manifest: Manifest): string | undefined {
  if (manifest.migrations <= KNOWN_MIGRATIONS) return undefined;
  return `Warning: the backup was written by a newer version of the site (${manifest.migrations} migrations; this code knows ${KNOWN_MIGRATIONS}). Update the code before starting the server on it.`;
}

export interface ExtractedArchive {
  /** Undefined for an archive of the first `db:backup`: a bare PGlite dump, database only. */
  manifest: Manifest | undefined;
  /** The size of every file entry in the archive, by path, whether extracted or not. */
  sizes: Map<string, number>;
}

export function requireArchiveFile(archive: string): void {
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) throw new BackupError(`${archive} is not a file.`);
}

/**
 * Reads the whole archive (so a truncated or damaged one fails here, on gzip's check), extracting
 * the regular files `wanted` says into `into`. Links and anything outside the layout are skipped.
 */
export async function extractArchive(archive: string, into: string, wanted: (entryPath: string) => boolean): Promise<ExtractedArchive> {
  requireArchiveFile(archive);
  const sizes = new Map<string, number>();
  try {
    await tar.x({
      file: archive,
      cwd: into,
      strict: true,
      filter: (entryPath, entry) => {
        const isFile = 'type' in entry && entry.type === 'File';
        if (isFile) sizes.set(entryPath, entry.size ?? 0);
        return isFile && (entryPath === MANIFEST_ENTRY || wanted(entryPath));
      },
    });
  } catch (error) {
    throw new BackupError(`${archive} is damaged or not a backup archive (${(error as Error).message}).`);
  }
  if (!sizes.has(MANIFEST_ENTRY)) return { manifest: undefined, sizes };
  let content: unknown;
  try {
    content = JSON.parse(fs.readFileSync(path.join(into, MANIFEST_ENTRY), 'utf8'));
  } catch {
    // Left undefined: the schema says what is wrong.
  }
  const parsed = ManifestSchema.safeParse(content);
  if (!parsed.success)
    throw new BackupError(`The manifest of ${archive} is not one this version can read: ${z.prettifyError(parsed.error)}`);
  return { manifest: parsed.data, sizes };
}

/** Checks the archive holds its database and every file its manifest lists, at the listed size. */
export function checkArchiveContents({ manifest, sizes }: { manifest: Manifest; sizes: Map<string, number> }, archive: string): void {
  if (!sizes.has(DATABASE_ENTRY[manifest.database]))
    throw new BackupError(`${archive} lacks its database (${DATABASE_ENTRY[manifest.database]}).`);
  const missing = manifest.file_list.filter((file) => sizes.get(archivedFilePath(file.key)) !== file.size);
  if (missing.length > 0) {
    const examples = missing.slice(0, 5).map((file) => file.key);
    throw new BackupError(
      `${archive} lacks ${missing.length} of the files its manifest lists, or holds them cut short: ${examples.join(', ')}.`,
    );
  }
}

export function archivedFilePath(key: string): string {
  return `${FILES_FOLDER}/${key}`;
}

/** A storage key is `<folder>/<name>`; anything that could leave the files folder is refused. */
export function isPlainKey(key: string): boolean {
  return !path.isAbsolute(key) && key.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

export const BUCKET_TRANSFERS_AT_ONCE = 4;

/** Runs `work` at most `limit` at a time (downloads from and uploads to the bucket). */
export async function eachWithLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** `20250131T235959Z`: sorts by time, and is safe in a file name. */
export function utcStamp(): string {
  return new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

export function describeSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The options and FILE of a command line; a mistake in them is answered with `usage`. */
export function readCommandLine<T extends ParseArgsOptionsConfig>(options: T, usage: string) {
  try {
    return parseArgs({ options, allowPositionals: true });
  } catch (error) {
    throw new BackupError(`${(error as Error).message}\n${usage}`);
  }
}

/** The end of every backup command: a clear message and exit code 1 for what the user can fix, the stack otherwise. */
export async function runBackupCommand(purpose: string, command: () => Promise<void>): Promise<void> {
  try {
    await command();
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError || error instanceof DatabaseLockedError) console.error(error.message);
    else console.error(`${purpose} failed:`, error);
    process.exitCode = 1;
  }
}
