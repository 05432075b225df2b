import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BROADCAST_NOT_FOUND, type BroadcastInput } from '../../common/broadcasts.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import { outboxMessages } from '../../db/schema.ts';
import { createMailer } from '../mail/mailer.ts';
import { createDataAccess } from '../repositories.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';
import { sendDueBroadcasts } from './broadcast-sender.ts';

// Broadcasts: staff (editors too) write, preview, test and send them; once on its way a broadcast
// no longer changes; members read the sent ones on the site if their tier (now) was in the audience,
// with only the sections their tier reaches.

const t = serviceTestApp();
const broadcasts = () => t.app.services.broadcasts;
const NOT_FOUND = { status: 404, message: BROADCAST_NOT_FOUND };
const ALREADY_SENT = { status: 409, message: 'This broadcast is sent or on its way: write a new one.' };

const BODY = ['## Market update', 'Read [the new course](/courses).', '', '[gold]', 'Gold: the mastermind is on Thursday.', '[/gold]'].join(
  '\n',
);
let numbered = 0;
const input = (audience: Tier[], extra: Partial<BroadcastInput> = {}): BroadcastInput => ({
  subject: `News ${++numbered}`,
  body: BODY,
  audience,
  course_id: null,
  team_id: null,
  inactive_days: null,
  ...extra,
});
/** Texts of the blocks a reader gets, in order. */
const textsOf = (blocks: unknown[]) => JSON.stringify(blocks);
/** The minute job, as a server process runs it. */
const sendingRun = () =>
  sendDueBroadcasts(createDataAccess(t.db), createMailer({ publicUrl: 'http://localhost:3000', nudge: () => {} }), new Date());

describe('writing broadcasts', () => {
  it('keeps writing, previewing, testing and sending to staff (editors included)', async () => {
    const made = await broadcasts().create(await t.asStaff('editor'), input(['gold']));
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => broadcasts().list(viewer),
      () => broadcasts().create(viewer, input(['gold'])),
      () => broadcasts().update(viewer, made.id, input(['gold'])),
      () => broadcasts().preview(viewer, made.id),
      () => broadcasts().sendTest(viewer, made.id),
      () => broadcasts().send(viewer, made.id, { send_at: null }),
    ]);
  });

  it('stores a draft with its audience and author, refuses a course that is not in the catalogue, and records it', async () => {
    const editor = await t.asStaff('editor');
    expect(await refusal(broadcasts().create(editor, input(['gold'], { course_id: 'no-such-course' })))).toEqual({
      status: 400,
      message: 'Choose a course from the catalogue.',
    });
    const made = await broadcasts().create(editor, input(['bronze', 'gold'], { inactive_days: 30 }));
    expect(made).toMatchObject({
      status: 'draft',
      audience: ['bronze', 'gold'],
      inactive_days: 30,
      course_id: null,
      send_at: null,
      sent_count: 0,
      clicks: 0,
      created_by: editor.staff.email,
    });
    expect((await broadcasts().list(editor)).items[0]!.id).toBe(made.id);
    expect(await lastAuditEntry(t, { action: 'broadcast.create', target: made.subject })).toMatchObject({
      newValue: { audience: ['bronze', 'gold'] },
    });
    const changed = await broadcasts().update(editor, made.id, input(['silver'], { subject: 'Changed subject' }));
    expect(changed).toMatchObject({ id: made.id, subject: 'Changed subject', audience: ['silver'], inactive_days: null });
    expect(await refusal(broadcasts().update(editor, '00000000-0000-4000-8000-000000000000', input(['gold'])))).toEqual(NOT_FOUND);
  });

  it('previews each tier’s copy, and mails a test of the highest tier’s copy to the staff member alone', async () => {
    const owner = await t.asStaff('owner');
    const made = await broadcasts().create(owner, input(['bronze', 'gold']));
    const preview = await broadcasts().preview(owner, made.id);
    expect(Object.keys(preview)).toEqual(['free', 'bronze', 'silver', 'gold']);
    expect(textsOf(preview.silver)).not.toContain('mastermind');
    expect(textsOf(preview.gold)).toContain('Gold: the mastermind is on Thursday.');

    await broadcasts().sendTest(owner, made.id);
    const tests = await t.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, owner.staff.email), eq(outboxMessages.kind, 'broadcast-test')));
    expect(tests.map((mail) => mail.subject)).toEqual([`[Test] ${made.subject}`]);
    expect(tests[0]!.text).toContain('Gold: the mastermind is on Thursday.');
  });

  it('sends now or at a time to come, once, and then keeps the broadcast as it was sent', async () => {
    const editor = await t.asStaff('editor');
    const made = await broadcasts().create(editor, input(['gold']));
    expect(await refusal(broadcasts().send(editor, made.id, { send_at: '2020-01-01T09:00:00Z' }))).toEqual({
      status: 400,
      message: 'Choose a time to come, or send it now.',
    });
    const at = new Date(Date.now() + 2 * 3600_000);
    const scheduled = await broadcasts().send(editor, made.id, { send_at: at.toISOString() });
    expect(scheduled).toMatchObject({ status: 'scheduled', send_at: at.toISOString() });
    expect(await lastAuditEntry(t, { action: 'broadcast.send', target: made.subject })).toMatchObject({
      newValue: { audience: ['gold'], send_at: at.toISOString() },
    });
    expect(await refusal(broadcasts().send(editor, made.id, { send_at: null }))).toEqual(ALREADY_SENT);
    expect(await refusal(broadcasts().update(editor, made.id, input(['free'])))).toEqual(ALREADY_SENT);
  });
});

describe('reading broadcasts on the site', () => {
  it('shows a sent broadcast only to the tiers it went to (as they are now), with the sections their tier reaches', async () => {
    const [bronze, silver, gold] = [await t.asMember('bronze'), await t.asMember('silver'), await t.asMember('gold')];
    const editor = await t.asStaff('editor');
    const draft = await broadcasts().create(editor, input(['bronze', 'gold']));
    expect(await refusal(broadcasts().read(gold, draft.id))).toEqual(NOT_FOUND);
    await broadcasts().send(editor, draft.id, { send_at: null });
    await sendingRun();

    const forBronze = await broadcasts().read(bronze, draft.id);
    expect(forBronze).toMatchObject({ id: draft.id, subject: draft.subject });
    expect(textsOf(forBronze.blocks)).toContain('Market update');
    expect(textsOf(forBronze.blocks)).not.toContain('mastermind');
    expect(textsOf((await broadcasts().read(gold, draft.id)).blocks)).toContain('mastermind');
    expect(await refusal(broadcasts().read(silver, draft.id))).toEqual(NOT_FOUND);
    expect((await broadcasts().past(bronze)).items.map((each) => each.id)).toContain(draft.id);
    expect((await broadcasts().past(silver)).items.map((each) => each.id)).not.toContain(draft.id);
    expect(await refusal(broadcasts().past(t.asVisitor()))).toEqual(SIGN_IN_FIRST);
    expect(await refusal(broadcasts().read(t.asVisitor(), draft.id))).toEqual(SIGN_IN_FIRST);
  });

  it('follows only the links a sent broadcast holds, counting each click', async () => {
    const editor = await t.asStaff('editor');
    const draft = await broadcasts().create(editor, input(['gold']));
    expect(await broadcasts().click(draft.id, '/courses')).toBeNull();
    await broadcasts().send(editor, draft.id, { send_at: null });
    await sendingRun();
    expect(await broadcasts().click(draft.id, 'https://evil.example.com/')).toBeNull();
    expect(await broadcasts().click(draft.id, '/courses')).toMatch(/^https?:\/\/[^/]+\/courses$/);
    expect((await broadcasts().list(editor)).items.find((each) => each.id === draft.id)).toMatchObject({ status: 'sent', clicks: 1 });
  });
});
