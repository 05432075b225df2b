import { z } from 'zod';
import type { Paged, SearchQuery } from './paging.ts';
import { requiredText, uuidParam } from './fields.ts';
import { TIERS, type Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';
import { IMAGES, TEXT_MAX } from './limits.ts';

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

/** Who may open an uploaded file: everyone (images on public pages), or members at a tier and above. */
export const FILE_VISIBILITIES = ['public', ...TIERS] as const;
export const FileVisibility = z.enum(FILE_VISIBILITIES, {
  error: 'Choose who may open the file: public, free, bronze, silver or gold.',
});
export type FileVisibility = z.infer<typeof FileVisibility>;
export const FILE_VISIBILITY_LABEL: Record<FileVisibility, string> = {
  public: 'Everyone (for public pages)',
  free: 'Members (free and above)',
  bronze: 'Bronze members and above',
  silver: 'Silver members and above',
  gold: 'Gold members only',
};

/** Images show on public pages; everything else is for paying members (downloads are a Bronze feature, SPEC 9). */
export const defaultVisibility = (folder: UploadFolder): FileVisibility => (folder === 'images' ? 'public' : 'bronze');

/** The tier a visibility asks for; null for everyone. */
export const accessTierOf = (visibility: FileVisibility): Tier | null => (visibility === 'public' ? null : visibility);

/** SPEC 3 Uploaded file; `visibility` says who may open it, `url` is where (a members-only file goes through a check). */
const UploadedFile = z.object({
  id: z.string(),
  filename: z.string(),
  folder: UploadFolder,
  url: z.string(),
  visibility: FileVisibility,
  content_type: z.string(),
});
type UploadedFile = z.infer<typeof UploadedFile>;
export const UploadedFileList = z.array(UploadedFile);

/** SPEC 7: the response's url is read; the rest lets a client show the new file at once. */
export const UploadResponse = UploadedFile.extend({ success: z.literal(true) });
export type UploadResponse = z.infer<typeof UploadResponse>;

export const FileParams = z.object({ id: uuidParam('File id') });
export const FileVisibilityInput = z.object({ visibility: FileVisibility });
export const FileQuery = z.object({
  w: z.coerce
    .number({ error: 'w must be a width in pixels' })
    .int('w must be a whole number')
    .min(1, 'w must be 1 or more')
    .max(IMAGES.maxAskedWidth, `w must be at most ${IMAGES.maxAskedWidth}`)
    .optional(),
});
export const FileRenameInput = z.object({ filename: requiredText('File name', TEXT_MAX.filename) });

export interface FilesService {
  /** Shown after 'Upload Files to' (SPEC 2). */
  readonly storageName: string;
  /** What the chooser tells staff: the file types accepted and the largest size. */
  readonly uploadRules: { extensions: string[]; maxBytes: number };
  /** The library, newest first, a page at a time; names containing the search, when given. */
  list(viewer: Viewer, query?: SearchQuery): Promise<Paged<UploadedFile>>;
  /** What the pickers offer (a thumbnail, a video, attachments): the newest files of each kind. */
  choices(viewer: Viewer): Promise<UploadedFile[]>;
  /**
   * Checks the file by extension and content, stores it under a server-chosen name with its
   * visibility (by default from its folder), and logs it.
   */
  upload(viewer: Viewer, file: { filename: string; content: Uint8Array; folder: unknown; visibility?: unknown }): Promise<UploadResponse>;
  /** Staff only: who may open a file from now on; logged. */
  setVisibility(viewer: Viewer, fileId: string, visibility: FileVisibility): Promise<UploadedFile>;
  /** Staff only: the name shown and given to downloads (its type, the ending, stays); logged. */
  rename(viewer: Viewer, fileId: string, filename: string): Promise<UploadedFile>;
  /** Staff only: deletes a file no course, lesson, resource or episode uses (refused, with where, otherwise); logged. */
  remove(viewer: Viewer, fileId: string): Promise<void>;
}
