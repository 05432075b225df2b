import {
  AutomationInput,
  AutomationParams,
  Automations,
  AutomationView,
  LifecycleLinkQuery,
  LifecycleMailParams,
} from '../../common/lifecycle.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function lifecycleRoutes(app: ZodApp) {
  const { lifecycle } = app.services;

  app.get(
    '/api/admin/automations',
    { config: { access: { area: 'broadcasts' } }, schema: { response: withErrors({ 200: Automations }) } },
    async (request) => lifecycle.list(await request.viewer()),
  );

  app.put(
    '/api/admin/automations/:key',
    {
      config: { access: { area: 'automations' } },
      schema: { params: AutomationParams, body: AutomationInput, response: withErrors({ 200: AutomationView }) },
    },
    async (request) => lifecycle.save(await request.viewer(), request.params.key, request.body),
  );

  // A link in a lifecycle mail: its first use counts the mail as opened, then on to the site's page.
  app.get(
    '/api/lifecycle/mails/:id/go',
    { schema: { params: LifecycleMailParams, querystring: LifecycleLinkQuery } },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').redirect(await lifecycle.follow(request.params.id, request.query.to), 302),
  );
}
