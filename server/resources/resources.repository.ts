import { asc } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { resources } from '../../db/schema.ts';

export function createResourcesRepository(db: DatabaseOrTransaction) {
  return {
    async list() {
      return db.select().from(resources).orderBy(asc(resources.position), asc(resources.title));
    },
  };
}

export type ResourcesRepository = ReturnType<typeof createResourcesRepository>;
