import { ContactMessageList, MessageParams, MessagesQuery } from '../../common/admin.contract.ts';
import { ContactInput } from '../../common/contact.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function contactRoutes(app: ZodApp) {
  const { contact, messages } = app.services;
  const staff = { access: 'staff' } as const;

  // SPEC 7: stores the message and answers {success: true}.
  app.post('/api/contact', { schema: { body: ContactInput, response: withErrors({ 201: SuccessResponse }) } }, async (request, reply) => {
    await contact.send(await request.viewer(), request.body);
    return reply.status(201).send({ success: true });
  });

  app.get(
    '/api/admin/messages',
    { config: staff, schema: { querystring: MessagesQuery, response: withErrors({ 200: ContactMessageList }) } },
    async (request, reply) => arrayPage(request, reply, await messages.list(await request.viewer(), request.query)),
  );

  app.post(
    '/api/admin/messages/:id/handled',
    { config: staff, schema: { params: MessageParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await messages.markHandled(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );
}
