import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, ServiceError } from '../../common/errors.ts';
import type { ByteRange, FileStorage } from './storage.ts';
import { INLINE_CONTENT_TYPES } from './upload-types.ts';

/** A stored file as the database records it. */
export interface StoredFile {
  storageKey: string;
  contentType: string;
  filename: string;
}

// A signed link to a file in object storage works this long: minutes for a members-only file, an
// hour for a public one (the redirect to it may then be cached for a while).
const SIGNED_URL_SECONDS = { membersOnly: 300, public: 3600 };
const PUBLIC_IMAGE_SECONDS = 7 * 24 * 60 * 60;

function dispositionOf(file: StoredFile): string {
  const kind = INLINE_CONTENT_TYPES.has(file.contentType) ? 'inline' : 'attachment';
  const asciiName = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`;
}

/** The one byte range a `Range: bytes=a-b` header asks for; null for none or several; 'unsatisfiable' past the end. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // The last N bytes.
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored file with its recorded type, `nosniff` and no scripting. A members-only file is
 * `private, no-store`; from object storage it is a redirect to a link that expires within minutes.
 * From local disk it streams, and answers byte ranges so videos can seek.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  file: StoredFile,
  options: { membersOnly: boolean; publicImage?: boolean },
) {
  const disposition = dispositionOf(file);
  // A public image never changes under its address (files are not replaced), so browsers and CDNs
  // keep it a week; should staff make it members-only, shared caches may hold it that long.
  const publicCaching = options.publicImage ? `public, max-age=${PUBLIC_IMAGE_SECONDS}` : 'public, max-age=3600';
  reply
    .header('cache-control', options.membersOnly ? 'private, no-store' : publicCaching)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  if (storage.signedUrl) {
    const expiresInSeconds = options.membersOnly ? SIGNED_URL_SECONDS.membersOnly : SIGNED_URL_SECONDS.public;
    const url = await storage.signedUrl(file.storageKey, { expiresInSeconds, contentType: file.contentType, disposition });
    if (!options.membersOnly) reply.header('cache-control', 'public, max-age=600');
    return reply.redirect(url, 302);
  }
  const size = (await storage.size?.(file.storageKey)) ?? null;
  if (size === null || !storage.open) throw notFound('File not found.');
  const range = parseRange(request.headers.range, size);
  reply.header('content-type', file.contentType).header('content-disposition', disposition).header('accept-ranges', 'bytes');
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new ServiceError(416, 'That part of the file does not exist.');
  }
  const stream = await storage.open(file.storageKey, range ?? undefined);
  if (!stream) throw notFound('File not found.');
  if (!range) return reply.header('content-length', size).send(stream);
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(stream);
}
