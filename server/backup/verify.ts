import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackupError,
  checkArchiveContents,
  DATABASE_ENTRY,
  describeSize,
  extractArchive,
  factsOfEmbeddedDump,
  newerVersionWarning,
} from './archive.ts';
import { runPostgresTool } from './postgres-tools.ts';

/**
 * Checks an archive without restoring it anywhere: it reads to the end (gzip's check), holds its
 * manifest, its database (opened in memory, or listed by pg_restore) and every file it lists.
 */
export async function verifyBackup(archive: string): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-verify-'));
  try {
    const extracted = await extractArchive(archive, scratch, (entry) => entry.startsWith('database/'));
    const { manifest } = extracted;
    if (!manifest) {
      // The first db:backup wrote a bare PGlite dump.
      const facts = await factsOfEmbeddedDump(archive);
      console.log(`${archive} is a good backup in the old format: the embedded database only, no files.`);
      console.log(`  ${facts.migrations} migrations, ${facts.members} members, ${facts.uploadedFiles} uploaded files.`);
      return;
    }
    checkArchiveContents({ manifest, sizes: extracted.sizes }, archive);
    const dumpPath = path.join(scratch, DATABASE_ENTRY[manifest.database]);
    if (manifest.database === 'embedded') {
      const facts = await factsOfEmbeddedDump(dumpPath);
      if (facts.members !== manifest.members || facts.uploadedFiles !== manifest.uploaded_files) {
        throw new BackupError(
          `The database in ${archive} holds ${facts.members} members and ${facts.uploadedFiles} uploaded files; its manifest says ${manifest.members} and ${manifest.uploaded_files}.`,
        );
      }
    } else {
      const contents = await runPostgresTool('pg_restore', ['--list', dumpPath]);
      if (!/ TABLE DATA \S+ members /.test(contents)) throw new BackupError(`The PostgreSQL dump in ${archive} holds no members table.`);
    }

    const bytes = manifest.file_list.reduce((sum, file) => sum + file.size, 0);
    console.log(`${archive} is a good backup, written ${manifest.created_at}.`);
    console.log(
      `  ${manifest.database === 'embedded' ? 'Embedded' : 'PostgreSQL'} database: ${manifest.migrations} migrations, ${manifest.members} members, ${manifest.uploaded_files} uploaded files.`,
    );
    console.log(
      manifest.files === 'none'
        ? '  No files: they stayed in the bucket (written without --include-files).'
        : `  ${manifest.file_list.length} files (${describeSize(bytes)}) from ${manifest.files === 's3' ? 'the bucket' : 'the server disk'}, all present.`,
    );
    const warning = newerVersionWarning(manifest);
    if (warning) console.warn(warning);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
