import { spawn } from 'node:child_process';
import pg from 'pg';
import { BackupError } from './archive.ts';

/** A connection of its own, without the server's statement timeout: a dump may take minutes. */
export async function connectForBackup(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'realtypocket backup' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to the database in DATABASE_URL: ${(error as Error).message}`);
  }
  return client;
}

/**
 * Runs pg_dump or pg_restore on DATABASE_URL and answers what it printed. The password goes in the
 * environment (PGPASSWORD), not on the command line, where anyone on the machine could read it.
 */
export async function runPostgresTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  { databaseUrl, ifItFails = '' }: { databaseUrl?: string; ifItFails?: string } = {},
): Promise<string> {
  const env = { ...process.env };
  const connection: string[] = [];
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    const password = url.password ? decodeURIComponent(url.password) : url.searchParams.get('password');
    url.password = '';
    url.searchParams.delete('password');
    if (password) env.PGPASSWORD = password;
    connection.push(`--dbname=${url.toString()}`);
  }
  const child = spawn(tool, [...connection, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    throw new BackupError(
      `${tool} was not found. Install the PostgreSQL client tools, of your database server's major version or newer ` +
        `(Debian/Ubuntu: apt install postgresql-client; macOS: brew install libpq), and make sure ${tool} is on PATH.`,
    );
  });
  if (exitCode !== 0) {
    const hint = /version mismatch|unsupported version/i.test(errors)
      ? ` Its version must be at least your database server's (${tool} --version).`
      : '';
    throw new BackupError(`${tool} failed (exit code ${exitCode}): ${errors.trim()}${hint}${ifItFails}`);
  }
  return output;
}
