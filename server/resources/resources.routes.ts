import { ResourceList } from '../../common/resources.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function resourcesRoutes(app: ZodApp) {
  const { resources } = app.services;
  app.get('/api/resources', { config: visitors, schema: { response: withErrors({ 200: ResourceList }) } }, async (request) =>
    resources.list(await request.viewer()),
  );
}
