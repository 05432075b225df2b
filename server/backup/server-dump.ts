import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError } from './archive.ts';

// The conversation on the control socket: the client writes `dump\n`; the server answers
// `ok <bytes>\n` and the PGlite dump (a gzip tarball), or `error <reason>\n`.
export const DUMP_REQUEST = 'dump';

/** The socket a server on the embedded database listens on, in the data directory it holds. */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

/** Asks the server holding the embedded database for a dump, and writes it to `target`. */
export async function requestDumpFromServer(dataDir: string, target: string): Promise<void> {
  const socketPath = controlSocketPath(dataDir);
  const connection = net.createConnection(socketPath);
  await new Promise<void>((resolve, reject) => {
    connection.once('connect', resolve);
    connection.once('error', reject);
  }).catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`No server answers on ${socketPath} (${error.code ?? error.message}).`);
  });
  connection.write(`${DUMP_REQUEST}\n`);
  let expected: number | undefined;
  let received = 0;
  async function* dumpBytes(source: AsyncIterable<Buffer>) {
    let head = Buffer.alloc(0);
    for await (const chunk of source) {
      if (expected !== undefined) {
        received += chunk.length;
        yield chunk;
        continue;
      }
      head = Buffer.concat([head, chunk]);
      const newline = head.indexOf('\n');
      if (newline < 0) continue;
      const answer = head.subarray(0, newline).toString();
      if (!answer.startsWith('ok ')) throw new BackupError(`The server could not write the dump: ${answer.replace(/^error /, '')}`);
      expected = Number(answer.slice(3));
      const rest = head.subarray(newline + 1);
      received += rest.length;
      yield rest;
    }
  }
  await pipeline(connection, dumpBytes, fs.createWriteStream(target));
  if (expected === undefined || received !== expected) {
    throw new BackupError('The server closed the connection before the dump was complete (was it stopping?). Try again.');
  }
}
