import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends included (HTTP Range requests: a video seeks). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where uploaded files live. Keys are chosen by the server: `<folder>/<random>.<ext>`. */
export interface FileStorage {
  /** Shown in the admin upload tab after 'Upload Files to'. */
  readonly displayName: string;
  /** `attachment`: a display name when the file must download rather than open in the browser. */
  put(key: string, body: Readable | Buffer, contentType: string, options?: { attachment?: string }): Promise<void>;
  /** Local storage: the site's own address of a public file. (In a bucket every file stays private.) */
  publicUrlFor?(key: string): string;
  delete(key: string): Promise<void>;
  /** Local storage: the file's size, or null when it is missing. */
  size?(key: string): Promise<number | null>;
  /** Local storage: the file's bytes (or some of them), or null when it is missing. */
  open?(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Object storage: a link to the file that works for a few minutes only, for one viewer. */
  signedUrl?(key: string, options: { expiresInSeconds: number; contentType: string; disposition: string }): Promise<string>;
}

export const LOCAL_FILES_PREFIX = '/files/';

/** A key is only ever `<folder>/<name>` made of safe characters; anything else is refused. */
function isSafeStorageKey(key: string): boolean {
  return /^[a-z0-9-]+\/[A-Za-z0-9_-]+(\.[a-z0-9]{1,10})?$/.test(key);
}

export class LocalDiskStorage implements FileStorage {
  readonly displayName = 'Local Storage';
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathFor(key: string): string {
    if (!isSafeStorageKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable | Buffer, _contentType: string): Promise<void> {
    const target = this.pathFor(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.partial`;
    if (Buffer.isBuffer(body)) await fs.promises.writeFile(partial, body);
    else await pipeline(body, fs.createWriteStream(partial));
    // Rename last so a half-written file is never served.
    await fs.promises.rename(partial, target);
  }

  publicUrlFor(key: string): string {
    return `${LOCAL_FILES_PREFIX}${key}`;
  }

  async size(key: string): Promise<number | null> {
    if (!isSafeStorageKey(key)) return null;
    try {
      return (await fs.promises.stat(this.pathFor(key))).size;
    } catch {
      return null;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable | null> {
    if ((await this.size(key)) === null) return null;
    return fs.createReadStream(this.pathFor(key), range);
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathFor(key), { force: true });
  }
}
