import { z } from 'zod';
import type { MessagesService } from '../../common/admin.contract.ts';
import type { ContactService } from '../../common/contact.contract.ts';
import { notFound, ServiceError } from '../../common/errors.ts';
import { CONTACT_LIMIT, PAGE_SIZE, TYPED_ADDRESS_MAIL } from '../../common/limits.ts';
import { hasPrioritySupport, requireStaffArea } from '../../common/policies.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';

// The cursor always carries the priority, so one shape serves both orders.
const MessageCursor = z.tuple([z.union([z.literal(0), z.literal(1)]), TimestampKey, z.uuid()]);

/**
 * SPEC 7: visitors write through the contact form; staff read the messages in the admin area and
 * hear about each by email (STAFF_NOTIFY_EMAIL, else every staff account), with reply-to set to the
 * sender, who gets an acknowledgement.
 */
export function createContactService(deps: {
  data: DataAccess;
  limiter: AttemptLimiter;
  mailer: Mailer;
  staffNotify: string | undefined;
}): ContactService {
  const { data, mailer } = deps;
  return {
    async send(viewer, input) {
      await deps.limiter.check('contact:address', viewer.client.address, CONTACT_LIMIT);
      const [received, forStaff] = await Promise.all([
        mailTemplates.contactReceived({ name: input.name, subject: input.subject }),
        mailTemplates.contactForStaff(input),
      ]);
      await data.transaction(async (tx) => {
        // The acknowledgement goes to the address typed: one inbox is not flooded from many client
        // addresses, nor by many requests at once (counted under the address's hold).
        const { perRecipient } = TYPED_ADDRESS_MAIL.contactAnswers;
        await tx.outbox.holdAddresses([input.email]);
        if ((await tx.contact.countFrom(input.email, new Date(Date.now() - perRecipient.windowMs))) >= perRecipient.max)
          throw new ServiceError(
            429,
            `We have received ${perRecipient.max} messages from ${input.email} in the last 24 hours, the most a day, so this one was not sent: we will answer those. Please write again tomorrow.`,
          );
        await tx.contact.create({
          ...input,
          ipAddress: viewer.client.address,
          memberId: viewer.member?.id ?? null,
          senderTier: viewer.member?.membershipTier ?? null,
          priority: hasPrioritySupport(viewer),
        });
        await mailer.queue(tx, 'contact-received', input.email, received);
        const staff = deps.staffNotify ? [deps.staffNotify] : await tx.staff.listEmails();
        for (const address of staff) await mailer.queue(tx, 'contact-for-staff', address, forStaff, { replyTo: input.email });
      });
      mailer.nudge();
    },
  };
}

export function createMessagesService(data: DataAccess): MessagesService {
  return {
    async list(viewer, query = {}) {
      requireStaffArea(viewer, 'messages');
      const { sort = 'newest', status = 'all' } = query;
      const before = query.before ? decodeCursor(query.before, MessageCursor) : undefined;
      const rows = await data.contact.latest(
        PAGE_SIZE.staffList + 1,
        { sort, status },
        before && { priority: before[0] === 1, createdAt: before[1], id: before[2] },
      );
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.priority ? 1 : 0, row.createdKey, row.id],
        (row) => ({
          id: row.id,
          name: row.name,
          email: row.email,
          subject: row.subject,
          message: row.message,
          handled: row.handled,
          created_at: row.createdAt.toISOString(),
          priority: row.priority,
          sender_tier: row.senderTier,
        }),
      );
    },

    async markHandled(viewer, messageId) {
      const staff = requireStaffArea(viewer, 'messages');
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
