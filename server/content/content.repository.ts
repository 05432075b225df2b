import { eq } from 'drizzle-orm';
import type { ContentData, ContentSectionKey } from '../../common/content-sections.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { contentSections } from '../../db/schema.ts';

export function createContentRepository(db: DatabaseOrTransaction) {
  return {
    /** The stored fields of a section, or an empty object when it was never saved. */
    async find(key: ContentSectionKey): Promise<ContentData> {
      const [row] = await db.select({ data: contentSections.data }).from(contentSections).where(eq(contentSections.key, key));
      return row?.data ?? {};
    },

    async save(key: ContentSectionKey, data: ContentData, updatedBy: string): Promise<void> {
      await db
        .insert(contentSections)
        .values({ key, data, updatedBy })
        .onConflictDoUpdate({ target: contentSections.key, set: { data, updatedBy, updatedAt: new Date() } });
    },
  };
}
