import { z } from 'zod';
import type { Viewer } from './viewer.ts';

/** SPEC 3 Community post. content is null for a visitor past the preview. */
export const CommunityPost = z.object({
  id: z.string(),
  user_name: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  created_at: z.string(),
  likes_count: z.number().int(),
  replies_count: z.number().int(),
});
export type CommunityPost = z.infer<typeof CommunityPost>;
export const CommunityPostList = z.array(CommunityPost);

export interface CommunityService {
  /** Newest first; members read every post, a visitor the first two only (SPEC 6). */
  list(viewer: Viewer): Promise<CommunityPost[]>;
}
