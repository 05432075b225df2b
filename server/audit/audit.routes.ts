import { AuditEntryList } from '../../common/admin.contract.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function auditRoutes(app: ZodApp) {
  const { audit } = app.services;
  app.get(
    '/api/admin/activity',
    { config: { access: 'staff' }, schema: { querystring: BeforeQuery, response: withErrors({ 200: AuditEntryList }) } },
    async (request, reply) => arrayPage(request, reply, await audit.list(await request.viewer(), request.query)),
  );
}
