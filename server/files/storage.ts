import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/** Where uploaded files live. Keys are chosen by the server: `<folder>/<random>.<ext>`. */
export interface FileStorage {
  /** Shown in the admin upload tab after 'Upload Files to'. */
  readonly displayName: string;
  /** `attachment`: a display name when the file must download rather than open in the browser. */
  put(key: string, body: Readable | Buffer, contentType: string, options?: { attachment?: string }): Promise<void>;
  /** The URL a browser opens to fetch the file. */
  urlFor(key: string): string;
  /** Local storage only: the file's stream, or null when it is missing. */
  open?(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

export const LOCAL_FILES_PREFIX = '/files/';

/** A key is only ever `<folder>/<name>` made of safe characters; anything else is refused. */
export function isSafeStorageKey(key: string): boolean {
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

  urlFor(key: string): string {
    return `${LOCAL_FILES_PREFIX}${key}`;
  }

  async open(key: string): Promise<Readable | null> {
    if (!isSafeStorageKey(key)) return null;
    const target = this.pathFor(key);
    try {
      await fs.promises.access(target, fs.constants.R_OK);
    } catch {
      return null;
    }
    return fs.createReadStream(target);
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathFor(key), { force: true });
  }
}
