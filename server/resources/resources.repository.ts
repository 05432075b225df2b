import { asc, eq } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { resources, uploadedFiles } from '../../db/schema.ts';

type NewResource = typeof resources.$inferInsert;

export function createResourcesRepository(db: DatabaseOrTransaction) {
  return {
    async list() {
      return db.select().from(resources).orderBy(asc(resources.position), asc(resources.title));
    },

    /** The daily tips, in the library's order: a handful to a few hundred short texts. */
    async dailyTips() {
      return db
        .select()
        .from(resources)
        .where(eq(resources.resourceType, 'daily_tip'))
        .orderBy(asc(resources.position), asc(resources.title), asc(resources.id));
    },

    /** Every resource with the name of its file, for staff. */
    async listWithFiles() {
      return db
        .select({ resource: resources, fileName: uploadedFiles.filename })
        .from(resources)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .orderBy(asc(resources.position), asc(resources.title));
    },

    async findById(id: string) {
      const [row] = await db.select().from(resources).where(eq(resources.id, id));
      return row ?? null;
    },

    async insert(resource: NewResource) {
      await db.insert(resources).values(resource);
    },

    async update(id: string, changes: Partial<NewResource>) {
      await db.update(resources).set(changes).where(eq(resources.id, id));
    },

    async remove(id: string) {
      await db.delete(resources).where(eq(resources.id, id));
    },
  };
}

export type ResourcesRepository = ReturnType<typeof createResourcesRepository>;
