import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { UploadFolder } from '../../common/files.contract.ts';
import { badRequest } from '../../common/errors.ts';
import { CAPTIONS } from '../../common/limits.ts';
import { parseWebVtt } from '../../common/webvtt.ts';
import { ALLOWED_EXTENSIONS, ALLOWED_UPLOAD_TYPES, type AllowedType } from './upload-types.ts';

/** The client's filename, kept for display only: no path, no control characters, a sane length. */
export function displayName(clientFilename: string | undefined): string {
  const base = path.posix.basename((clientFilename ?? '').replace(/\\/g, '/'));
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '').trim();
  return (cleaned || 'file').slice(0, 200);
}

function isUtf8Text(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

/** Checks the file by extension AND by its content; refuses anything outside the allow-list. */
export async function checkUpload(filename: string, content: Buffer): Promise<{ type: AllowedType; extension: string }> {
  const extension = path.extname(filename).slice(1).toLowerCase();
  const type = ALLOWED_UPLOAD_TYPES.find((candidate) => candidate.extensions.includes(extension));
  if (!type) throw badRequest(`Files of this type are not accepted. Allowed: ${ALLOWED_EXTENSIONS.join(', ')}.`);
  if (content.length === 0) throw badRequest('The file is empty.');
  // Captions say first what is wrong in them (an .srt renamed, a broken time), not only that they are not WebVTT.
  if (extension === 'vtt') checkCaptions(content);
  const sniffed = await fileTypeFromBuffer(content);
  const matches = type.sniffed === null ? sniffed === undefined && isUtf8Text(content) : sniffed?.ext === type.sniffed;
  if (!matches) throw badRequest(`The file's content does not match its .${extension} extension.`);
  return { type, extension };
}

/** A captions file is one a browser shows: valid WebVTT, and not too large for a phone to read. */
function checkCaptions(content: Buffer): void {
  if (content.length > CAPTIONS.maxBytes) throw badRequest(`A captions file may be at most ${CAPTIONS.maxBytes / 1024} KB.`);
  const parsed = parseWebVtt(content.toString('utf8'), CAPTIONS.maxCues);
  if (!parsed.ok) throw badRequest(`This is not a WebVTT captions file a browser can show. ${parsed.error}.`);
}

/** The server picks where a file is stored: `<folder>/<random>.<ext>`. */
export function storageKeyFor(folder: UploadFolder, extension: string): string {
  return `${folder}/${randomBytes(16).toString('hex')}.${extension}`;
}
