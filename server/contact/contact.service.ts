import type { MessagesService } from '../../common/admin.contract.ts';
import type { ContactService } from '../../common/contact.contract.ts';
import { notFound } from '../../common/errors.ts';
import { CONTACT_LIMIT } from '../../common/limits.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { DataAccess } from '../repositories.ts';

const INBOX_ROWS = 500;

/** SPEC 7: visitors write through the contact form; staff read the messages in the admin area. */
export function createContactService(deps: { data: DataAccess; limiter: AttemptLimiter }): ContactService {
  return {
    async send(viewer, input) {
      await deps.limiter.check('contact:address', viewer.client.address, CONTACT_LIMIT);
      await deps.data.contact.create({ ...input, ipAddress: viewer.client.address });
    },
  };
}

export function createMessagesService(data: DataAccess): MessagesService {
  return {
    async list(viewer) {
      requireStaff(viewer);
      const rows = await data.contact.latest(INBOX_ROWS);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        subject: row.subject,
        message: row.message,
        handled: row.handled,
        created_at: row.createdAt.toISOString(),
      }));
    },

    async markHandled(viewer, messageId) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        const updated = await tx.contact.markHandled(messageId);
        if (!updated) throw notFound('Message not found');
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'message.handled',
          target: updated.subject,
          oldValue: false,
          newValue: true,
        });
      });
    },
  };
}
