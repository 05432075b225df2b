import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.ts';
import { controlSocketPath, DUMP_REQUEST } from './server-dump.ts';

// A client that sends nothing, or stops reading the dump, is dropped after this long.
const IDLE_MS = 30_000;
const MAX_REQUEST_BYTES = 64;

/**
 * Lets `npm run db:backup` copy the embedded database while the site runs: PGlite's files may be
 * opened by one process only (db/lock.ts), so the server that holds them writes the dump, on a
 * Unix socket in the data directory that only the data's owner can open (docs/decisions/012).
 * A socket that cannot be opened costs only online backups: the site starts anyway.
 */
export async function startControlSocket(
  database: DatabaseHandle,
  dataDir: string,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  const dumpsUnderWay = new Set<Promise<void>>();

  async function sendDump(connection: net.Socket): Promise<void> {
    // A large database takes a while to dump, with nothing sent meanwhile: the idle limit waits.
    connection.setTimeout(0);
    log.info('control socket: making a database dump for a backup');
    let dump: Blob;
    try {
      dump = await database.dumpDataDir!();
    } catch (error) {
      log.warn({ err: error }, 'control socket: the database dump failed');
      connection.end(`error ${(error as Error).message.replace(/\s+/g, ' ')}\n`);
      return;
    }
    connection.setTimeout(IDLE_MS);
    log.info(`control socket: sending a database dump of ${dump.size} bytes for a backup`);
    connection.write(`ok ${dump.size}\n`);
    await pipeline(Readable.from(dump.stream()), connection).catch((error: unknown) =>
      log.warn({ err: error }, 'control socket: the backup client went away during the dump'),
    );
  }

  const connections = new Set<net.Socket>();
  const server = net.createServer((connection) => {
    connections.add(connection);
    connection.once('close', () => connections.delete(connection));
    connection.setTimeout(IDLE_MS, () => connection.destroy());
    connection.on('error', () => {});
    let request = '';
    const onData = (chunk: Buffer) => {
      request += chunk.toString();
      if (!request.includes('\n')) {
        if (request.length > MAX_REQUEST_BYTES) connection.destroy();
        return;
      }
      connection.off('data', onData);
      if (request.trim() !== DUMP_REQUEST) {
        connection.end('error unknown request\n');
        return;
      }
      const dump = sendDump(connection);
      dumpsUnderWay.add(dump);
      void dump.finally(() => dumpsUnderWay.delete(dump));
    };
    connection.on('data', onData);
  });

  // Bound in a folder only this user can enter, made private, then moved into place: nobody can
  // connect before it is 0600. This process holds the database lock, so a socket already at the
  // path was left by one that died, and the rename replaces it.
  let privateDir: string | undefined;
  try {
    privateDir = fs.mkdtempSync(path.join(dataDir, '.control-'));
    const draft = path.join(privateDir, 'control.sock');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(draft, resolve);
    });
    server.on('error', (error) => log.warn({ err: error }, 'control socket: error'));
    fs.chmodSync(draft, 0o600);
    fs.renameSync(draft, socketPath);
  } catch (error) {
    server.close();
    log.warn({ err: error }, `control socket: cannot listen on ${socketPath}, so backups need the server stopped`);
    return { close: async () => {} };
  } finally {
    if (privateDir) fs.rmSync(privateDir, { recursive: true, force: true });
  }

  return {
    async close() {
      server.close();
      fs.rmSync(socketPath, { force: true });
      // A dump under way finishes first: the database closes next. Idle clients are then let go.
      await Promise.allSettled(dumpsUnderWay);
      for (const connection of connections) connection.destroy();
    },
  };
}
