import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { contactMessages } from '../../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { requireStaff } from '../sessions/session.plugin.ts';
import { listAudit, recordAudit } from './audit.ts';

export async function adminMessagesRoutes(app: FastifyInstance) {
  // The contact form's messages, newest first.
  app.get('/api/admin/messages', async () => {
    const rows = await app.database.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(500);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      subject: row.subject,
      message: row.message,
      handled: row.handled,
      created_at: row.createdAt.toISOString(),
    }));
  });

  app.post<{ Params: { id: string } }>('/api/admin/messages/:id/handled', async (request) => {
    const staff = await requireStaff(request);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw notFound('Message not found');
    const [updated] = await app.database
      .update(contactMessages)
      .set({ handled: true, handledAt: new Date() })
      .where(eq(contactMessages.id, request.params.id))
      .returning({ id: contactMessages.id, subject: contactMessages.subject });
    if (!updated) throw notFound('Message not found');
    await recordAudit(app.database, {
      actorEmail: staff.email,
      action: 'message.handled',
      target: updated.subject,
      oldValue: false,
      newValue: true,
    });
    return { success: true };
  });

  app.get('/api/admin/activity', async () => listAudit(app.database));
}
