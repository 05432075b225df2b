import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ContactInput } from '../../common/contact.contract.ts';
import { CONTACT_LIMIT, PAGE_SIZE } from '../../common/limits.ts';
import { TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import { auditLog, contactMessages, outboxMessages } from '../../db/schema.ts';
import { refusal, serviceTestApp, TOO_MANY_ATTEMPTS } from '../../tests/helpers/service-tests.ts';
import { uniqueEmail } from '../../tests/helpers/test-app.ts';
import { AttemptLimiter } from '../http/attempt-limiter.ts';
import { INVALID_CURSOR } from '../lists/keyset.ts';
import { createMailer } from '../mail/mailer.ts';
import { createDataAccess } from '../repositories.ts';
import { createContactService } from './contact.service.ts';

// The contact form (anyone writes; the sender and staff are mailed) and staff's inbox of messages.

const t = serviceTestApp();

const message = (subject: string): ContactInput => ({
  name: 'Pat Broker',
  email: uniqueEmail('sender'),
  subject,
  message: 'We have 8 agents. What would team pricing look like?',
});
const mailTo = (address: string, kind: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, address), eq(outboxMessages.kind, kind)));

describe('the contact form', () => {
  it('stores a visitor message with their address, thanks the sender and tells every staff account, replying to the sender', async () => {
    const owner = await t.asStaff('owner');
    const editor = await t.asStaff('editor');
    const input = message('Team pricing');
    await t.app.services.contact.send(t.asVisitor('10.1.0.1'), input);

    const [stored] = await t.db.select().from(contactMessages).where(eq(contactMessages.email, input.email));
    expect(stored).toMatchObject({ ...input, ipAddress: '10.1.0.1', handled: false });
    const [thanks] = await mailTo(input.email, 'contact-received');
    expect(thanks?.subject).toBe('We received your message: Team pricing');
    for (const staff of [owner.staff, editor.staff]) {
      const notices = await mailTo(staff.email, 'contact-for-staff');
      expect(notices).toEqual([expect.objectContaining({ subject: 'Contact form: Team pricing', replyTo: input.email })]);
    }
  });

  it(`takes ${CONTACT_LIMIT.max} messages an hour from one client address, then refuses with 429 and stores nothing more`, async () => {
    const visitor = t.asVisitor('10.1.0.2');
    for (let index = 0; index < CONTACT_LIMIT.max; index++) await t.app.services.contact.send(visitor, message(`Limited ${index}`));
    const extra = message('One too many');
    expect(await refusal(t.app.services.contact.send(visitor, extra))).toEqual(TOO_MANY_ATTEMPTS);
    expect(await t.db.select().from(contactMessages).where(eq(contactMessages.email, extra.email))).toEqual([]);
    // Another address is counted apart.
    await t.app.services.contact.send(t.asVisitor('10.1.0.3'), message('From elsewhere'));
  });

  it('mails only STAFF_NOTIFY_EMAIL when it is set, not each staff account', async () => {
    // The same service as the app's, built with the setting (the app reads it once, at start).
    const notifying = createContactService({
      data: createDataAccess(t.db),
      limiter: new AttemptLimiter('contact-test'),
      mailer: createMailer({ publicUrl: t.config.publicUrl, nudge: () => {} }),
      staffNotify: 'inbox@example.com',
    });
    const staff = await t.asStaff('owner');
    const input = message('Routed');
    await notifying.send(t.asVisitor('10.1.0.5'), input);
    expect(await mailTo('inbox@example.com', 'contact-for-staff')).toEqual([expect.objectContaining({ replyTo: input.email })]);
    expect(await mailTo(staff.staff.email, 'contact-for-staff')).toEqual([]);
  });
});

describe("staff's inbox", () => {
  it('is for staff only: 401 for a visitor, 403 for a member of any tier, 403 until required two-factor sign-in is set up', async () => {
    expect((await refusal(t.app.services.messages.list(t.asVisitor()))).status).toBe(401);
    expect((await refusal(t.app.services.messages.list(await t.asMember('gold')))).status).toBe(403);
    const editor = await t.asStaff('editor');
    const unprotected = { ...editor, staff: { ...editor.staff, twoFactorRequired: true, twoFactorEnabled: false } };
    expect(await refusal(t.app.services.messages.list(unprotected))).toEqual({ status: 403, message: TWO_FACTOR_SETUP_FIRST });
    expect(await t.app.services.messages.list(editor)).toMatchObject({ items: expect.any(Array) });
  });

  it('lists messages newest first, a page at a time, each page after the last one shown; a made-up page link is a 400', async () => {
    const editor = await t.asStaff('editor');
    const start = Date.parse('2030-01-01T00:00:00Z');
    await t.db.insert(contactMessages).values(
      Array.from({ length: PAGE_SIZE.staffList + 1 }, (_, index) => ({
        ...message(`Paged ${index}`),
        ipAddress: '10.1.0.9',
        createdAt: new Date(start + index * 1000),
      })),
    );
    const first = await t.app.services.messages.list(editor);
    expect(first.items).toHaveLength(PAGE_SIZE.staffList);
    expect(first.items[0]?.subject).toBe(`Paged ${PAGE_SIZE.staffList}`);
    const second = await t.app.services.messages.list(editor, { before: first.next_cursor! });
    expect(second.items[0]?.subject).toBe('Paged 0');
    const times = [...first.items, ...second.items].map((item) => item.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(await refusal(t.app.services.messages.list(editor, { before: 'not-a-cursor' }))).toEqual({
      status: 400,
      message: INVALID_CURSOR,
    });
  });

  it('marks a message handled, records who did it in the activity log, and answers 404 for an unknown message', async () => {
    const editor = await t.asStaff('editor');
    const input = message('Please call me');
    await t.app.services.contact.send(t.asVisitor('10.1.0.4'), input);
    const [stored] = await t.db.select().from(contactMessages).where(eq(contactMessages.email, input.email));
    expect((await refusal(t.app.services.messages.markHandled(await t.asMember('gold'), stored!.id))).status).toBe(403);
    await t.app.services.messages.markHandled(editor, stored!.id);

    const [handled] = await t.db.select().from(contactMessages).where(eq(contactMessages.id, stored!.id));
    expect(handled).toMatchObject({ handled: true, handledAt: expect.any(Date) });
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.action, 'message.handled'));
    expect(entries).toEqual([
      expect.objectContaining({ actorEmail: editor.staff.email, target: 'Please call me', oldValue: false, newValue: true }),
    ]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await refusal(t.app.services.messages.markHandled(editor, unknown))).toEqual({ status: 404, message: 'Message not found' });
  });
});
