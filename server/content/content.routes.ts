import type { FastifyInstance } from 'fastify';
import { isContentSectionKey } from '../../common/content-sections.ts';
import { notFound } from '../http/errors.ts';
import { createContentRepository } from './content.repository.ts';

export async function contentRoutes(app: FastifyInstance) {
  const repository = createContentRepository(app.database);

  // SPEC 7: `{data: {...}}`, an empty object when the section was never saved.
  app.get<{ Params: { section: string } }>('/api/content/:section', async (request) => {
    const { section } = request.params;
    if (!isContentSectionKey(section)) throw notFound(`There is no content section called "${section}".`);
    return { data: await repository.find(section) };
  });
}
