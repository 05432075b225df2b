import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { resources, uploadedFiles } from '../../db/schema.ts';

type NewResource = typeof resources.$inferInsert;

/** A resource's columns and its stored file's visibility (null: no file, or a public one). */
const withFileAccess = { ...getTableColumns(resources), fileAccessTier: uploadedFiles.accessTier };

/** Where the staff's next page of resources starts: the last row's place in the library's order. */
export interface ResourceListKey {
  position: number;
  title: string;
  id: string;
}

export function createResourcesRepository(db: DatabaseOrTransaction) {
  return {
    /** The library in its order, with who may open each stored file (its own visibility). */
    async list() {
      return db
        .select(withFileAccess)
        .from(resources)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .orderBy(asc(resources.position), asc(resources.title));
    },

    /** The daily tips, in the library's order: a handful to a few hundred short texts. */
    async dailyTips() {
      return db
        .select(withFileAccess)
        .from(resources)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .where(eq(resources.resourceType, 'daily_tip'))
        .orderBy(asc(resources.position), asc(resources.title), asc(resources.id));
    },

    /**
     * A page of the resources with the names of their files, for staff: in the library's order
     * (position, title, id; index resources_position_idx), after the key given.
     */
    async staffPage(limit: number, after?: ResourceListKey) {
      const page = after
        ? sql`(${resources.position}, ${resources.title}, ${resources.id}) > (${after.position}::int, ${after.title}::text, ${after.id}::text)`
        : undefined;
      return db
        .select({ resource: resources, fileName: uploadedFiles.filename })
        .from(resources)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .where(page)
        .orderBy(asc(resources.position), asc(resources.title), asc(resources.id))
        .limit(limit);
    },

    /** A resource's place in the staff's list (null once it is gone), from the id a page link names. */
    async staffListKey(id: string): Promise<ResourceListKey | null> {
      const [row] = await db
        .select({ position: resources.position, title: resources.title, id: resources.id })
        .from(resources)
        .where(eq(resources.id, id));
      return row ?? null;
    },

    /** One resource with the name of its file, for staff. */
    async findWithFile(id: string) {
      const [row] = await db
        .select({ resource: resources, fileName: uploadedFiles.filename })
        .from(resources)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .where(eq(resources.id, id));
      return row ?? null;
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
