import { badRequest } from '../../common/errors.ts';
import { isPublicFile } from '../../common/policies.ts';
import type { DataAccess } from '../repositories.ts';

/**
 * The address of an image from the file library chosen for a public page (a course thumbnail, an
 * episode's artwork): it must be an image everyone may open, or visitors would see a broken picture.
 */
export async function publicImageUrl(data: DataAccess, fileId: string, field: string, what: string): Promise<string> {
  const file = await data.files.findById(fileId);
  if (!file) throw badRequest(`The ${what} is not in the file library.`, field);
  if (!file.contentType.startsWith('image/')) throw badRequest(`The ${what} must be an image.`, field);
  if (!isPublicFile(file)) throw badRequest(`The ${what} must be an image visible to everyone (public).`, field);
  return `/api/files/${file.id}`;
}
