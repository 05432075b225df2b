import { z } from 'zod';
import type { Viewer } from './viewer.ts';

/** SPEC 3 upload folders; course-materials is the default. */
export const UPLOAD_FOLDER_VALUES = ['course-materials', 'ebooks', 'templates', 'images', 'videos'] as const;
export const UploadFolder = z.enum(UPLOAD_FOLDER_VALUES, { error: `Choose one of the folders: ${UPLOAD_FOLDER_VALUES.join(', ')}.` });
export type UploadFolder = z.infer<typeof UploadFolder>;
export const DEFAULT_UPLOAD_FOLDER: UploadFolder = 'course-materials';
export const UPLOAD_FOLDER_LABEL: Record<UploadFolder, string> = {
  'course-materials': 'Course Materials',
  ebooks: 'eBooks',
  templates: 'Templates',
  images: 'Images',
  videos: 'Videos',
};

/** SPEC 3 Uploaded file. */
const UploadedFile = z.object({ id: z.string(), filename: z.string(), folder: UploadFolder, url: z.string() });
type UploadedFile = z.infer<typeof UploadedFile>;
export const UploadedFileList = z.array(UploadedFile);

/** SPEC 7: the response's url is read; the rest lets a client show the new file at once. */
export const UploadResponse = UploadedFile.extend({ success: z.literal(true) });
export type UploadResponse = z.infer<typeof UploadResponse>;

export interface FilesService {
  /** Shown after 'Upload Files to' (SPEC 2). */
  readonly storageName: string;
  list(viewer: Viewer): Promise<UploadedFile[]>;
  /** Checks the file by extension and content, stores it under a server-chosen name, and logs it. */
  upload(viewer: Viewer, file: { filename: string; content: Uint8Array; folder: unknown }): Promise<UploadResponse>;
}
