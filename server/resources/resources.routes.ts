import { ResourceList } from '../../common/resources.contract.ts';
import type { ZodApp } from '../http/zod.ts';

export async function resourcesRoutes(app: ZodApp) {
  const { resources } = app.services;
  app.get('/api/resources', { schema: { response: { 200: ResourceList } } }, async (request) => resources.list(await request.viewer()));
}
