import { desc, eq } from 'drizzle-orm';
import type { UploadFolder } from '../../common/files.contract.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { uploadedFiles } from '../../db/schema.ts';

export function createFilesRepository(db: DatabaseOrTransaction) {
  return {
    /** Newest first. */
    async latest(limit: number) {
      return db.select().from(uploadedFiles).orderBy(desc(uploadedFiles.createdAt)).limit(limit);
    },

    async findByStorageKey(storageKey: string) {
      const [row] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.storageKey, storageKey)).limit(1);
      return row ?? null;
    },

    async create(values: {
      filename: string;
      folder: UploadFolder;
      storageKey: string;
      contentType: string;
      sizeBytes: number;
      url: string;
      uploadedBy: string;
    }): Promise<{ id: string }> {
      const [row] = await db.insert(uploadedFiles).values(values).returning({ id: uploadedFiles.id });
      return row!;
    },
  };
}
