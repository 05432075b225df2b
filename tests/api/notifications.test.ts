import { and, eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_DEVICE_TAKEN, type NotificationPage, type NotificationSettings } from '../../common/notifications.contract.ts';
import { members, notificationDigests, outboxMessages, pushMessages, pushSubscriptions } from '../../db/schema.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { handOutNews, sendDigests } from '../../server/notifications/notification-jobs.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { startPushService, type PushService } from '../helpers/push-service.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The notifications centre, from the outside: what happened reaches the member once, in the bell,
// by email and by push as they chose; read on one device is read on all; a member sees only what
// their tier reads now; news for a tier is handed out once across processes; a device the push
// service calls gone is forgotten.

let t: TestApp;
let push: PushService;
let staff: { authorization: string };
let staffId: string;
const vapid = webpush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startPushService();
  t = await createTestApp({
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:owner@example.com',
      PUSH_SERVICE_ORIGINS: `${push.url},https://fcm.googleapis.com`,
    },
  });
  const owner = await t.loginAsStaff();
  staff = { authorization: `Bearer ${owner.token}` };
  staffId = owner.id;
});
afterAll(async () => {
  await t.close();
  await push.close();
});

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { ...headers }, payload });
const pageOf = async (member: MemberLogin) => (await request('GET', '/api/notifications', member.headers)).json<NotificationPage>();
const mailsTo = (email: string, kind: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, kind)));

async function discussion(author: MemberLogin, space: 'general' | 'gold' = 'general', title = `Listings ${Math.random()}`) {
  const created = await request('POST', '/api/community/posts', author.headers, { title, body: 'What works for you?', space });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; title: string }>();
}
const replyTo = async (who: MemberLogin, postId: string, body: string) => {
  const answer = await request('POST', `/api/community/posts/${postId}/replies`, who.headers, { body });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json<{ id: string }>();
};

describe('the bell', () => {
  it('tells the author of a reply once, in the list and by email, and marks it read on every device', async () => {
    const author = await t.loginAs('bronze', { name: 'Bella Author' });
    const replier = await t.loginAs('silver', { name: 'Ray Replier' });
    const post = await discussion(author);
    await replyTo(replier, post.id, 'Open houses on Sunday work best.');

    const page = await pageOf(author);
    expect(page.unread).toBe(1);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'reply',
      title: `Ray Replier replied to “${post.title}”`,
      body: 'Open houses on Sunday work best.',
      url: `/community/${post.id}`,
      read: false,
    });
    expect(await mailsTo(author.email, 'community-reply')).toHaveLength(1);
    // The replier is not told of their own reply.
    expect((await pageOf(replier)).items).toEqual([]);

    // A second device of the same member: read there, read here.
    const { token } = await t.app.sessions.create({ kind: 'member', memberId: author.memberId });
    const otherDevice = { authorization: `Bearer ${token}` };
    const read = await request('POST', '/api/notifications/read', otherDevice, { ids: [page.items[0]!.id] });
    expect(read.json()).toEqual({ unread: 0 });
    expect((await pageOf(author)).items[0]!.read).toBe(true);
    expect((await request('GET', '/api/notifications/unread', author.headers)).json()).toEqual({ unread: 0 });
  });

  it('tells those who replied before in the discussion, and whoever a text names with @, once each', async () => {
    const author = await t.loginAs('bronze', { name: 'Dana Host' });
    const earlier = await t.loginAs('bronze', { name: 'Evan Early' });
    const named = await t.loginAs('free', { name: 'Mina Mentioned' });
    const post = await discussion(author);
    await replyTo(earlier, post.id, 'First thought.');
    await replyTo(author, post.id, 'Thanks @Mina Mentioned, what do you think? And @Nobody Here too.');

    expect((await pageOf(earlier)).items.map((item) => item.title)).toEqual([`Dana Host also replied in “${post.title}”`]);
    const mentions = (await pageOf(named)).items;
    expect(mentions).toHaveLength(1);
    expect(mentions[0]).toMatchObject({ kind: 'mention', title: `Dana Host mentioned you in “${post.title}”` });
    expect(await mailsTo(named.email, 'notification-mention')).toHaveLength(1);
  });

  it('tells every earlier replier of a reply as each chose: their own name in their mail, a push to their device, no mail when switched off or in a digest', async () => {
    const author = await t.loginAs('bronze', { name: 'Host Of Many' });
    const post = await discussion(author);
    const [plain, quoted, quiet, digested, pushed] = [
      await t.loginAs('bronze', { name: 'Pat Plain' }),
      await t.loginAs('silver', { name: `Quinn "Q" O'Hara & Co` }),
      await t.loginAs('bronze', { name: 'Quiet Quincy' }),
      await t.loginAs('bronze', { name: 'Dee Digest' }),
      await t.loginAs('gold', { name: 'Penny Push' }),
    ];
    const settingsOf = async (member: MemberLogin) =>
      (await request('GET', '/api/notifications/settings', member.headers)).json<NotificationSettings>();
    const quietSettings = await settingsOf(quiet);
    await request('PUT', '/api/notifications/settings', quiet.headers, {
      kinds: { ...quietSettings.kinds, reply: { site: true, email: false, push: false } },
      digest: 'off',
    });
    await request('PUT', '/api/notifications/settings', digested.headers, { kinds: (await settingsOf(digested)).kinds, digest: 'daily' });
    const device = push.subscribe();
    expect((await request('POST', '/api/push/subscriptions', pushed.headers, device)).statusCode).toBe(201);
    for (const member of [plain, quoted, quiet, digested, pushed]) await replyTo(member, post.id, `Thoughts from ${member.email}`);
    await replyTo(author, post.id, 'Thank you all.');

    const title = `Host Of Many also replied in “${post.title}”`;
    for (const member of [plain, quoted, quiet, digested, pushed]) {
      expect((await pageOf(member)).items.filter((item) => item.title === title)).toHaveLength(1);
    }
    const mailOf = async (member: MemberLogin) =>
      (await mailsTo(member.email, 'notification-reply')).filter((mail) => mail.subject === title);
    const [plainMail] = await mailOf(plain);
    expect(plainMail!.text).toContain('Hi Pat Plain,');
    expect(plainMail!.html).toContain('Hi Pat Plain,');
    const [quotedMail] = await mailOf(quoted);
    expect(quotedMail!.text).toContain(`Hi Quinn "Q" O'Hara & Co,`);
    expect(quotedMail!.html).toContain('Hi Quinn &quot;Q&quot; O&#x27;Hara &amp; Co,');
    expect(quotedMail!.html).not.toContain('Pat Plain');
    expect(await mailOf(quiet)).toEqual([]);
    expect(await mailOf(digested)).toEqual([]);
    expect(await mailOf(pushed)).toHaveLength(1);
    const delivered = await push.waitFor(
      (message) => message.endpoint === device.endpoint && message.payload.includes('also replied'),
      15_000,
    );
    expect(JSON.parse(delivered.payload)).toMatchObject({ title, url: `/community/${post.id}` });
    // The author is not told of their own reply, and nobody twice.
    expect((await pageOf(author)).items.filter((item) => item.title === title)).toEqual([]);
  });

  it('gathers the likes of one discussion into one notification that counts them, and starts again once read', async () => {
    const author = await t.loginAs('bronze', { name: 'Liked Author' });
    const post = await discussion(author);
    const [first, second, third] = [await t.loginAs('bronze'), await t.loginAs('bronze'), await t.loginAs('bronze')];
    for (const liker of [first, second]) {
      expect((await request('PUT', `/api/community/posts/${post.id}/like`, liker.headers)).statusCode).toBe(200);
    }
    // Liking twice counts once.
    await request('PUT', `/api/community/posts/${post.id}/like`, second.headers);
    let likes = (await pageOf(author)).items.filter((item) => item.kind === 'like');
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ count: 2, read: false, body: '2 likes in all' });

    await request('POST', '/api/notifications/read', author.headers, {});
    await request('PUT', `/api/community/posts/${post.id}/like`, third.headers);
    likes = (await pageOf(author)).items.filter((item) => item.kind === 'like');
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ count: 1, read: false });
  });

  it('shows a member moved off Gold none of the Gold Lounge’s notifications, and them again once back', async () => {
    const author = await t.loginAs('gold', { name: 'Goldie Lounge' });
    const other = await t.loginAs('gold');
    const post = await discussion(author, 'gold');
    await replyTo(other, post.id, 'Lounge talk.');
    expect((await pageOf(author)).items.map((item) => item.body)).toContain('Lounge talk.');

    // Changed in the database directly (as a payment event would): the site learns of it within a second.
    await t.db.update(members).set({ membershipTier: 'silver' }).where(eq(members.id, author.memberId));
    await expect.poll(async () => (await pageOf(author)).items.map((item) => item.body), { timeout: 5_000 }).not.toContain('Lounge talk.');
    expect((await pageOf(author)).unread).toBe(0);

    await t.db.update(members).set({ membershipTier: 'gold' }).where(eq(members.id, author.memberId));
    await expect.poll(async () => (await pageOf(author)).items.map((item) => item.body), { timeout: 5_000 }).toContain('Lounge talk.');
  });

  it('refuses visitors, a broken page link and ids that are not notifications', async () => {
    expect((await request('GET', '/api/notifications')).statusCode).toBe(401);
    expect((await request('POST', '/api/notifications/read', {}, {})).statusCode).toBe(401);
    const member = await t.loginAs('free');
    expect((await request('GET', '/api/notifications?before=broken', member.headers)).statusCode).toBe(400);
    const bad = await request('POST', '/api/notifications/read', member.headers, { ids: ['not-an-id'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('Choose notifications by their id');
  });
});

describe('choices', () => {
  it('keeps each kind’s channels and the digest, and defaults to them for a member who never chose', async () => {
    const member = await t.loginAs('silver');
    const defaults = (await request('GET', '/api/notifications/settings', member.headers)).json<NotificationSettings>();
    expect(defaults.kinds.reply).toEqual({ site: true, email: true, push: true });
    expect(defaults.kinds.like).toEqual({ site: true, email: false, push: false });
    expect(defaults.digest).toBe('off');
    expect(defaults.push).toMatchObject({ available: true, public_key: vapid.publicKey, devices: 0 });

    const kinds = { ...defaults.kinds, reply: { site: false, email: false, push: false } };
    const saved = await request('PUT', '/api/notifications/settings', member.headers, { kinds, digest: 'weekly' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<NotificationSettings>()).toMatchObject({
      kinds: { reply: { site: false, email: false, push: false } },
      digest: 'weekly',
    });

    const refused = await request('PUT', '/api/notifications/settings', member.headers, { kinds, digest: 'hourly' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain('Digest must be off, daily or weekly');
  });

  it('sends no email and shows nothing for a kind switched off, and still tells the member once', async () => {
    const author = await t.loginAs('bronze');
    const settings = (await request('GET', '/api/notifications/settings', author.headers)).json<NotificationSettings>();
    await request('PUT', '/api/notifications/settings', author.headers, {
      kinds: { ...settings.kinds, reply: { site: false, email: false, push: false } },
      digest: 'off',
    });
    const post = await discussion(author);
    await replyTo(await t.loginAs('bronze'), post.id, 'Quiet reply.');
    expect((await pageOf(author)).items).toEqual([]);
    expect(await mailsTo(author.email, 'community-reply')).toEqual([]);
  });

  it('gathers a day’s replies into one digest email instead of one each, sent once even from two servers', async () => {
    const author = await t.loginAs('bronze', { name: 'Digest Reader' });
    const settings = (await request('GET', '/api/notifications/settings', author.headers)).json<NotificationSettings>();
    await request('PUT', '/api/notifications/settings', author.headers, { kinds: settings.kinds, digest: 'daily' });
    await t.db.update(members).set({ timeZone: 'America/Chicago' }).where(eq(members.id, author.memberId));
    const post = await discussion(author);
    await replyTo(await t.loginAs('bronze', { name: 'Reply One' }), post.id, 'First reply for the digest.');
    await replyTo(await t.loginAs('bronze', { name: 'Reply Two' }), post.id, 'Second reply for the digest.');
    expect(await mailsTo(author.email, 'community-reply')).toEqual([]);

    // 8:20 in Chicago today, for two servers at once, then again later in the hour.
    const chicagoMorning = new Date();
    const offset = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hourCycle: 'h23' }).format(chicagoMorning),
    );
    chicagoMorning.setTime(chicagoMorning.getTime() + ((8 - offset + 24) % 24) * 3_600_000);
    chicagoMorning.setUTCMinutes(20);
    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    await Promise.all([
      sendDigests(createDataAccess(t.db), mailer, chicagoMorning),
      sendDigests(createDataAccess(t.db), mailer, chicagoMorning),
    ]);
    await sendDigests(createDataAccess(t.db), mailer, new Date(chicagoMorning.getTime() + 20 * 60_000));
    const digests = await mailsTo(author.email, 'community-digest-daily');
    expect(digests).toHaveLength(1);
    expect(digests[0]!.subject).toBe('Your community today');
    expect(digests[0]!.text).toContain('Reply One replied to');
    expect(digests[0]!.text).toContain('Reply Two replied to');
    const [claimed] = await t.db.select().from(notificationDigests).where(eq(notificationDigests.memberId, author.memberId));
    expect(claimed?.lastPeriod).not.toBeNull();
  });
});

describe('push', () => {
  it('pushes a reply to the member’s device, encrypted for it and signed by the site, and forgets a device the service calls gone', async () => {
    const author = await t.loginAs('bronze', { name: 'Pushed Author' });
    const device = push.subscribe();
    const subscribed = await request('POST', '/api/push/subscriptions', author.headers, device);
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    expect((await request('GET', '/api/notifications/settings', author.headers)).json<NotificationSettings>().push.devices).toBe(1);

    const post = await discussion(author);
    await replyTo(await t.loginAs('bronze', { name: 'Pusher Replier' }), post.id, 'A reply worth a push.');
    const delivered = await push.waitFor((message) => message.endpoint === device.endpoint, 15_000);
    expect(JSON.parse(delivered.payload)).toMatchObject({
      title: `Pusher Replier replied to “${post.title}”`,
      body: 'A reply worth a push.',
      url: `/community/${post.id}`,
    });
    expect(delivered.vapidSubject).toBe('mailto:owner@example.com');
    expect(delivered.ttl).toBeGreaterThan(0);

    // The browser unsubscribed: the service answers 410, and the site forgets the device.
    push.gone(device.endpoint);
    await replyTo(await t.loginAs('bronze'), post.id, 'Another reply.');
    await expect
      .poll(async () => (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).length, {
        timeout: 15_000,
      })
      .toBe(0);
  });

  it('sends nothing more to a device whose member signed out there, and goes on to their other devices', async () => {
    const author = await t.loginAs('bronze', { name: 'Two Devices' });
    const laptop = await request('POST', '/api/auth/login', {}, { email: author.email, password: author.password });
    const laptopHeaders = { authorization: `Bearer ${laptop.json<{ token: string }>().token}` };
    const [phone, computer] = [push.subscribe(), push.subscribe()];
    expect((await request('POST', '/api/push/subscriptions', author.headers, phone)).statusCode).toBe(201);
    expect((await request('POST', '/api/push/subscriptions', laptopHeaders, computer)).statusCode).toBe(201);

    const post = await discussion(author);
    // Signed out on the phone (a shared or a lost one): its pushes stop, the computer's go on.
    expect((await request('POST', '/api/auth/logout', author.headers)).statusCode).toBe(200);
    await replyTo(await t.loginAs('bronze', { name: 'Later Replier' }), post.id, 'Pushed to the computer only.');
    const delivered = await push.waitFor((message) => message.endpoint === computer.endpoint, 15_000);
    expect(JSON.parse(delivered.payload)).toMatchObject({ body: 'Pushed to the computer only.' });
    const [phoneRow] = await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint));
    expect(await t.db.select().from(pushMessages).where(eq(pushMessages.subscriptionId, phoneRow!.id))).toEqual([]);
  });

  it('refuses a push address at a service the site does not send to, and bad keys, and stops on request', async () => {
    const member = await t.loginAs('free');
    const device = push.subscribe();
    const elsewhere = await request('POST', '/api/push/subscriptions', member.headers, {
      ...device,
      endpoint: 'https://evil.example/push/1',
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().detail).toContain('This push service is not one the site sends to');
    const badKeys = await request('POST', '/api/push/subscriptions', member.headers, { ...device, keys: { p256dh: 'x', auth: 'y' } });
    expect(badKeys.statusCode).toBe(400);
    expect((await request('POST', '/api/push/subscriptions', {}, device)).statusCode).toBe(401);

    expect((await request('POST', '/api/push/subscriptions', member.headers, device)).statusCode).toBe(201);
    expect((await request('DELETE', '/api/push/subscriptions', member.headers, { endpoint: device.endpoint })).statusCode).toBe(200);
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual([]);
  });

  it('never moves a member’s device to another member who knows its endpoint; the device changes hands once its member lets it go', async () => {
    const owner = await t.loginAs('bronze', { name: 'Device Owner' });
    const thief = await t.loginAs('bronze');
    const device = push.subscribe();
    expect((await request('POST', '/api/push/subscriptions', owner.headers, device)).statusCode).toBe(201);
    const devices = async (who: MemberLogin) =>
      (await request('GET', '/api/notifications/settings', who.headers)).json<NotificationSettings>().push.devices;
    const rowOf = async () => (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint)))[0];

    // The endpoint with the thief's own keys, and as it is: refused, and the device stays its member's.
    for (const keys of [push.subscribe().keys, device.keys]) {
      const taken = await request('POST', '/api/push/subscriptions', thief.headers, { ...device, keys });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().detail).toBe(PUSH_DEVICE_TAKEN);
    }
    expect(await rowOf()).toMatchObject({ memberId: owner.memberId, p256dh: device.keys.p256dh, auth: device.keys.auth });
    expect([await devices(owner), await devices(thief)]).toEqual([1, 0]);
    // Nor can the thief stop it.
    expect((await request('DELETE', '/api/push/subscriptions', thief.headers, { endpoint: device.endpoint })).statusCode).toBe(200);
    expect((await rowOf())?.memberId).toBe(owner.memberId);

    // The owner still gets their pushes on it, and renews it as often as the browser subscribes again.
    const post = await discussion(owner);
    await replyTo(await t.loginAs('bronze', { name: 'Still Pushed' }), post.id, 'Reaches the owner.');
    const delivered = await push.waitFor((message) => message.endpoint === device.endpoint, 15_000);
    expect(JSON.parse(delivered.payload)).toMatchObject({ title: `Still Pushed replied to “${post.title}”` });
    expect((await request('POST', '/api/push/subscriptions', owner.headers, device)).statusCode).toBe(201);
    expect(await devices(owner)).toBe(1);

    // Push turned off there (signing out of the site does it too, in the service worker): the device may be another's.
    expect((await request('DELETE', '/api/push/subscriptions', owner.headers, { endpoint: device.endpoint })).statusCode).toBe(200);
    expect((await request('POST', '/api/push/subscriptions', thief.headers, device)).statusCode).toBe(201);
    expect((await rowOf())?.memberId).toBe(thief.memberId);
  });
});

describe('news for a whole tier', () => {
  it('tells every member a new Silver session is for, once, even when two servers hand it out at once', async () => {
    const [free, silver, gold] = [await t.loginAs('free'), await t.loginAs('silver'), await t.loginAs('gold')];
    const soon = new Date(Date.now() + 3 * 24 * 3_600_000);
    const scheduled = await request('POST', '/api/admin/coaching/series', staff, {
      kind: 'session',
      title: 'Pricing clinic',
      description: 'Bring a listing.',
      host_staff_id: staffId,
      date: soon.toISOString().slice(0, 10),
      time: '18:00',
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 30,
      join_url: 'https://meet.example.com/pricing',
      address: '',
      weekly: false,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    await Promise.all([handOutNews(createDataAccess(t.db), mailer), handOutNews(createDataAccess(t.db), mailer)]);
    await handOutNews(createDataAccess(t.db), mailer);

    const titles = async (member: MemberLogin) =>
      (await pageOf(member)).items.filter((item) => item.kind === 'session').map((item) => item.title);
    expect(await titles(silver)).toEqual(['New live session: Pricing clinic']);
    expect(await titles(gold)).toEqual(['New live session: Pricing clinic']);
    expect(await titles(free)).toEqual([]);
  });
});
