import { z } from 'zod';
import { TimestampKey } from '../lists/keyset.ts';

/** Where a page of episodes newest first continues: the last one shown's `published_at::text` and id. */
export const EpisodeCursor = z.tuple([TimestampKey, z.string().min(1).max(200)]);
