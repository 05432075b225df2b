// The allow-list of uploadable files: extension, the type found by reading the file's first bytes
// (file-type), and the content type we serve it with. Anything else is refused.
export interface AllowedType {
  extensions: string[];
  /** What file-type reports for this content; null for plain text, which has no signature. */
  sniffed: string | null;
  contentType: string;
  /** Shown in the browser (PDF, images, audio, video); everything else downloads as an attachment. */
  inline: boolean;
}

export const ALLOWED_UPLOAD_TYPES: AllowedType[] = [
  { extensions: ['pdf'], sniffed: 'pdf', contentType: 'application/pdf', inline: true },
  {
    extensions: ['docx'],
    sniffed: 'docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    inline: false,
  },
  {
    extensions: ['xlsx'],
    sniffed: 'xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    inline: false,
  },
  {
    extensions: ['pptx'],
    sniffed: 'pptx',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    inline: false,
  },
  { extensions: ['png'], sniffed: 'png', contentType: 'image/png', inline: true },
  { extensions: ['jpg', 'jpeg'], sniffed: 'jpg', contentType: 'image/jpeg', inline: true },
  { extensions: ['gif'], sniffed: 'gif', contentType: 'image/gif', inline: true },
  { extensions: ['webp'], sniffed: 'webp', contentType: 'image/webp', inline: true },
  { extensions: ['mp3'], sniffed: 'mp3', contentType: 'audio/mpeg', inline: true },
  { extensions: ['m4a'], sniffed: 'm4a', contentType: 'audio/mp4', inline: true },
  { extensions: ['wav'], sniffed: 'wav', contentType: 'audio/wav', inline: true },
  { extensions: ['mp4'], sniffed: 'mp4', contentType: 'video/mp4', inline: true },
  { extensions: ['mov'], sniffed: 'mov', contentType: 'video/quicktime', inline: true },
  { extensions: ['webm'], sniffed: 'webm', contentType: 'video/webm', inline: true },
  { extensions: ['txt'], sniffed: null, contentType: 'text/plain; charset=utf-8', inline: false },
  { extensions: ['csv'], sniffed: null, contentType: 'text/csv; charset=utf-8', inline: false },
  // Captions of a lesson's video: checked as WebVTT on upload (upload-checks.ts).
  { extensions: ['vtt'], sniffed: 'vtt', contentType: 'text/vtt; charset=utf-8', inline: false },
];

export const ALLOWED_EXTENSIONS = ALLOWED_UPLOAD_TYPES.flatMap((type) => type.extensions);

/** Content types a browser may show inline: none of them can run scripts. */
export const INLINE_CONTENT_TYPES = new Set(ALLOWED_UPLOAD_TYPES.filter((type) => type.inline).map((type) => type.contentType));
