import { AuditEntryList } from '../../common/admin.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function auditRoutes(app: ZodApp) {
  const { audit } = app.services;
  app.get(
    '/api/admin/activity',
    { config: { access: 'staff' }, schema: { response: withErrors({ 200: AuditEntryList }) } },
    async (request) => audit.list(await request.viewer()),
  );
}
