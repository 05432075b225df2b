import { count, desc, eq, getTableColumns, inArray, max, notInArray, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { podcastEpisodes } from '../../db/schema.ts';

export type EpisodeFields = Omit<typeof podcastEpisodes.$inferInsert, 'id'>;

/** Where a page of episodes newest first starts: after this row's publication moment (PostgreSQL's text) and id. */
export interface EpisodeKey {
  publishedAt: string;
  id: string;
}

const NEWEST_FIRST = [desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id)] as const;

export function createPodcastRepository(db: DatabaseOrTransaction) {
  return {
    /**
     * Every episode, newest first: only for the spec's staff API, which answers and saves the list
     * whole (`GET /api/admin/podcast/list`, `POST /api/admin/podcast/update`, SPEC 4).
     */
    async list() {
      return db
        .select()
        .from(podcastEpisodes)
        .orderBy(...NEWEST_FIRST);
    },

    /** A page of episodes newest first, after `before` (on podcast_episodes_newest_idx). */
    async newest(limit: number, before?: EpisodeKey) {
      return db
        .select({ ...getTableColumns(podcastEpisodes), publishedKey: sql<string>`${podcastEpisodes.publishedAt}::text` })
        .from(podcastEpisodes)
        .where(
          before
            ? sql`(${podcastEpisodes.publishedAt}, ${podcastEpisodes.id}) < (${before.publishedAt}::timestamptz, ${before.id})`
            : undefined,
        )
        .orderBy(...NEWEST_FIRST)
        .limit(limit);
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(podcastEpisodes);
      return row?.value ?? 0;
    },

    async findById(id: string) {
      const [row] = await db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).limit(1);
      return row ?? null;
    },

    /** The stored episodes among these ids (a page being saved). */
    async findByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(podcastEpisodes)
        .where(inArray(podcastEpisodes.id, ids))
        .orderBy(...NEWEST_FIRST);
    },

    /** The highest season, and the highest episode number in a season (0 when it has none). */
    async latestSeason(): Promise<number | null> {
      const [row] = await db.select({ value: max(podcastEpisodes.season) }).from(podcastEpisodes);
      return row?.value ?? null;
    },

    async lastEpisodeIn(season: number): Promise<number> {
      const [row] = await db
        .select({ value: max(podcastEpisodes.episode) })
        .from(podcastEpisodes)
        .where(eq(podcastEpisodes.season, season));
      return row?.value ?? 0;
    },

    async deleteAllExcept(ids: string[]): Promise<void> {
      if (ids.length === 0) await db.delete(podcastEpisodes);
      else await db.delete(podcastEpisodes).where(notInArray(podcastEpisodes.id, ids));
    },

    /** Deletes these episodes, and no other. */
    async deleteIds(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.delete(podcastEpisodes).where(inArray(podcastEpisodes.id, ids));
    },

    async insert(id: string, fields: EpisodeFields): Promise<void> {
      await db.insert(podcastEpisodes).values({ id, ...fields });
    },

    async update(id: string, fields: Partial<EpisodeFields>): Promise<void> {
      await db.update(podcastEpisodes).set(fields).where(eq(podcastEpisodes.id, id));
    },
  };
}

export type PodcastRepository = ReturnType<typeof createPodcastRepository>;
