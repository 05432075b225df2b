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
  /** The whole file, or null when it is missing (backups read every stored file through this). */
  get(key: string): Promise<Readable | null>;
  /** Object storage: a link to the file that works for a few minutes only, for one viewer. */
  signedUrl?(key: string, options: { expiresInSeconds: number; contentType: string; disposition: string }): Promise<string>;
}

export const LOCAL_FILES_PREFIX = '/files/';

export const STORAGE_UNAVAILABLE = 'The file store cannot be reached right now. Please try again in a few minutes.';

/** The disk (ENOSPC, a quota) or the bucket (a 507, a quota) has no room for the file. */
export function isStorageFull(error: unknown): boolean {
  const candidate = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
  return (
    candidate?.code === 'ENOSPC' ||
    candidate?.code === 'EDQUOT' ||
    candidate?.$metadata?.httpStatusCode === 507 ||
    candidate?.name === 'XMinioStorageFull' ||
    candidate?.name === 'QuotaExceeded'
  );
}

/** The bucket could not be reached, or answered that it is failing (5xx): try again later. */
export function isStorageUnavailable(error: unknown): boolean {
  const candidate = error as { $metadata?: { httpStatusCode?: unknown }; $fault?: unknown; name?: unknown; code?: unknown } | null;
  if (!candidate || typeof candidate !== 'object' || !('$metadata' in candidate || candidate.name === 'TimeoutError')) return false;
  const status = candidate.$metadata?.httpStatusCode;
  return status === undefined || (typeof status === 'number' && status >= 500) || candidate.$fault === 'server';
}

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
    try {
      if (Buffer.isBuffer(body)) await fs.promises.writeFile(partial, body);
      else await pipeline(body, fs.createWriteStream(partial));
      // Rename last so a half-written file is never served.
      await fs.promises.rename(partial, target);
    } catch (error) {
      // A full disk (or any failure) leaves nothing behind.
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
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

  get(key: string): Promise<Readable | null> {
    return this.open(key);
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathFor(key), { force: true });
  }
}
