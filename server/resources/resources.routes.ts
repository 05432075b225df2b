import { SuccessResponse } from '../../common/fields.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { ResourceInput, ResourceList, ResourceParams, StaffResource, StaffResourceList } from '../../common/resources.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function resourcesRoutes(app: ZodApp) {
  const { resources, resourceAuthoring } = app.services;
  const staff = { access: 'staff' } as const;

  app.get('/api/resources', { config: visitors, schema: { response: withErrors({ 200: ResourceList }) } }, async (request) =>
    resources.list(await request.viewer()),
  );

  // A page of resources; the next is named in `Link` (the answer stays an array).
  app.get(
    '/api/admin/resources',
    { config: staff, schema: { querystring: BeforeQuery, response: withErrors({ 200: StaffResourceList }) } },
    async (request, reply) => arrayPage(request, reply, await resourceAuthoring.staffList(await request.viewer(), request.query)),
  );
  app.post(
    '/api/admin/resources',
    { config: staff, schema: { body: ResourceInput, response: withErrors({ 201: StaffResource }) } },
    async (request, reply) => reply.status(201).send(await resourceAuthoring.create(await request.viewer(), request.body)),
  );
  app.put(
    '/api/admin/resources/:id',
    { config: staff, schema: { params: ResourceParams, body: ResourceInput, response: withErrors({ 200: StaffResource }) } },
    async (request) => resourceAuthoring.update(await request.viewer(), request.params.id, request.body),
  );
  app.delete(
    '/api/admin/resources/:id',
    { config: staff, schema: { params: ResourceParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await resourceAuthoring.remove(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );
}
