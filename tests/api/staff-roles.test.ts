import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_OWNER, STAFF_EXISTS, type StaffAccount } from '../../common/admin.contract.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { auditLog, members, outboxMessages, staffAccounts } from '../../db/schema.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';
import { mayEnterStaffArea, OWNER_ONLY, STAFF_AREAS, type StaffArea } from '../../common/policies.ts';

// Owners invite staff with a role; editors author content but cannot manage staff, members or billing.
let t: TestApp;

/** The text of the message sent to this address (the .eml file the server writes without SMTP_URL). */
async function sentMailTo(address: string): Promise<string | undefined> {
  const dir = path.join(t.dataDir, 'outbox');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.eml')) : [];
  for (const name of files) {
    const mail = await simpleParser(fs.readFileSync(path.join(dir, name)));
    if (mail.to && !Array.isArray(mail.to) && mail.to.text === address) return `${mail.subject}\n${mail.text}`;
  }
  return undefined;
}
let owner: { authorization: string };
let ownerId: string;
let editor: { authorization: string };
let member: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  const signedIn = await t.loginAsStaff();
  owner = { authorization: `Bearer ${signedIn.token}` };
  ownerId = signedIn.id;
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
  member = await t.loginAs('gold');
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
// An editor as the policies see one (only the role matters to them).
const editorViewer = {
  member: null,
  staff: { id: '', email: '', role: 'editor', sessionId: '', twoFactorEnabled: false, twoFactorRequired: false },
  client: { address: '', userAgent: undefined },
} as const;
const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

describe('staff roles', () => {
  it('lets only owners manage staff: visitors 401, members and editors 403', async () => {
    const someone = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, payload] of [
      ['GET', '/api/admin/staff'],
      ['POST', '/api/admin/staff', { email: uniqueEmail('invitee'), role: 'editor' }],
      ['POST', `/api/admin/staff/${someone}/role`, { role: 'owner' }],
      ['DELETE', `/api/admin/staff/${someone}`],
    ] as const) {
      expect((await request(method, url, {}, payload)).statusCode, url).toBe(401);
      expect((await request(method, url, member.headers, payload)).statusCode, url).toBe(403);
      const refused = await request(method, url, editor, payload);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().detail).toBe(OWNER_ONLY);
    }
  });

  it('keeps members and billing to owners, and lets editors author content', async () => {
    const members = await request('GET', '/api/admin/members', editor);
    expect(members.statusCode).toBe(403);
    expect((await request('POST', `/api/admin/members/${member.memberId}/tier`, editor, { membership_tier: 'free' })).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/members', owner)).statusCode).toBe(200);
    const course = await request('POST', '/api/admin/courses', editor, {
      title: 'Written By An Editor',
      description: 'Editors write courses.',
      category: 'sales',
      tier: 'free',
      instructor: 'Ed Itor',
      duration: '10m',
    });
    expect(course.statusCode).toBe(201);
    expect((await request('GET', '/api/admin/session', editor)).json().role).toBe('editor');
  });

  it('invites a staff member by email with a link to choose a password, once per address', async () => {
    const email = uniqueEmail('new-editor');
    const invited = await request('POST', '/api/admin/staff', owner, { email, role: 'editor' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ email, role: 'editor', you: false });
    // The link is in the message as sent (an .eml file without SMTP_URL); the outbox keeps no working one.
    await expect.poll(() => sentMailTo(email), { timeout: 10_000 }).toContain('You are invited to the RealtyPocket admin');
    const link = /\/admin\/reset-password\?token=([\w-]+)/.exec((await sentMailTo(email))!)!;
    expect(link).not.toBeNull();
    const [kept] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
    expect(kept!.text).not.toContain(link[1]);

    // The invited person chooses a password and signs in with it, as an editor.
    const chosen = await request('POST', '/api/admin/password-reset/confirm', {}, { token: link[1], password: 'editor password 1' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const login = await request('POST', '/api/admin/login', {}, { email, password: 'editor password 1' });
    expect(login.statusCode).toBe(200);
    const session = await request('GET', '/api/admin/session', { authorization: `Bearer ${login.json().token}` });
    expect(session.json()).toMatchObject({ email, role: 'editor' });

    const again = await request('POST', '/api/admin/staff', owner, { email: email.toUpperCase(), role: 'owner' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(STAFF_EXISTS);
    const bad = await request('POST', '/api/admin/staff', owner, { email: 'not-an-email', role: 'boss' });
    expect(bad.statusCode).toBe(400);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'staff.invite')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ target: email, newValue: 'editor' });
  });

  it('changes roles and removes staff, never the last owner and never oneself', async () => {
    const email = uniqueEmail('promoted');
    const { id } = (await request('POST', '/api/admin/staff', owner, { email, role: 'editor' })).json();
    expect((await request('POST', `/api/admin/staff/${id}/role`, owner, { role: 'owner' })).json().role).toBe('owner');
    expect((await request('POST', `/api/admin/staff/${id}/role`, owner, { role: 'editor' })).json().role).toBe('editor');
    expect((await request('DELETE', `/api/admin/staff/${ownerId}`, owner)).statusCode).toBe(403);

    // The only owners left cannot step down.
    const owners = (await t.db.select().from(staffAccounts)).filter((row) => row.role === 'owner');
    for (const other of owners.filter((row) => row.id !== ownerId)) {
      await request('POST', `/api/admin/staff/${other.id}/role`, owner, { role: 'editor' });
    }
    const lastOwner = await request('POST', `/api/admin/staff/${ownerId}/role`, owner, { role: 'editor' });
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().detail).toBe(LAST_OWNER);

    expect((await request('DELETE', `/api/admin/staff/${id}`, owner)).statusCode).toBe(200);
    expect((await t.db.select().from(staffAccounts).where(eq(staffAccounts.id, id))).length).toBe(0);
    expect((await request('DELETE', `/api/admin/staff/${id}`, owner)).statusCode).toBe(404);
  });
});

describe('learners', () => {
  it("shows owners a member's courses, certificates, sign-ins and the changes made to them", async () => {
    const learner = await t.loginAs('free', { name: 'Lena Learner' });
    expect((await request('POST', '/api/courses/first-90-days/enrol', learner.headers)).statusCode).toBe(200);
    await request('POST', '/api/lessons/first-90-days-l1/complete', learner.headers);
    await request('POST', `/api/admin/members/${learner.memberId}/tier`, owner, { membership_tier: 'silver' });

    expect((await request('GET', `/api/admin/members/${learner.memberId}`)).statusCode).toBe(401);
    expect((await request('GET', `/api/admin/members/${learner.memberId}`, editor)).statusCode).toBe(403);
    const detail = await request('GET', `/api/admin/members/${learner.memberId}`, owner);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json();
    expect(body.member).toMatchObject({ name: 'Lena Learner', email: learner.email, membership_tier: 'silver' });
    expect(body.enrolments).toHaveLength(1);
    expect(body.enrolments[0]).toMatchObject({ id: 'first-90-days', completed_lessons: 1, progress_percent: 17 });
    expect(body.sign_ins[0]).toMatchObject({ active: true });
    expect(body.activity.map((entry: { action: string }) => entry.action)).toContain('member.tier');
    expect((await request('GET', '/api/admin/members/00000000-0000-4000-8000-000000000000', owner)).statusCode).toBe(404);
  });

  it('counts signups and enrolments per week and members per tier for owners', async () => {
    expect((await request('GET', '/api/admin/overview', editor)).statusCode).toBe(403);
    const overview = (await request('GET', '/api/admin/overview', owner)).json();
    expect(overview.signups_by_week).toHaveLength(12);
    expect(overview.signups_by_week.at(-1).count).toBeGreaterThanOrEqual(2);
    expect(overview.enrolments_by_week.at(-1).count).toBeGreaterThanOrEqual(1);
    const byTier = (await t.db.select().from(members)).reduce<Record<string, number>>((counts, row) => {
      counts[row.membershipTier] = (counts[row.membershipTier] ?? 0) + 1;
      return counts;
    }, {});
    expect(overview.members_by_tier).toEqual({
      free: byTier.free ?? 0,
      bronze: byTier.bronze ?? 0,
      silver: byTier.silver ?? 0,
      gold: byTier.gold ?? 0,
    });
  });
});

describe('every admin route, by role', () => {
  // The admin routes anyone may call: signing in and out, the reset of a forgotten password, and the
  // counts the public home page reads (SPEC 7 calls them under /admin).
  const PUBLIC_ADMIN_ROUTES = new Set([
    'GET /api/admin/analytics/content',
    'POST /api/admin/login',
    'POST /api/admin/logout',
    'POST /api/admin/password-reset',
    'POST /api/admin/password-reset/confirm',
  ]);
  const someId = '00000000-0000-4000-8000-000000000000';
  const filled = (url: string) => url.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === 'section' ? 'homepage_hero' : someId));

  // What an owner alone may do, written out here rather than read from the policy under test: the
  // members (their list, details, tiers, the CSV export and the overview), billing (revenue and its Insights, refunds,
  // offers, trials, team seat prices and team offers) and the staff (accounts, roles, requiring two-factor, lifting a two-factor lock). Editors author content, coach, moderate,
  // answer messages, write broadcasts and read the content part of the activity log.
  const OWNER_AREAS = ['members', 'billing', 'staff', 'automations'];
  const EDITOR_AREAS = ['content', 'coaching', 'community', 'messages', 'broadcasts', 'activity'];
  const OWNER_ONLY_ROUTES = new Set([
    'GET /api/admin/members',
    'GET /api/admin/members/export.csv',
    'GET /api/admin/members/:id',
    'POST /api/admin/members/:id/tier',
    'POST /api/admin/members/:id/early-openings',
    'GET /api/admin/overview',
    'GET /api/admin/billing/revenue',
    'GET /api/admin/insights/revenue',
    'GET /api/admin/insights/revenue/:figure.csv',
    'PUT /api/admin/automations/:key',
    'POST /api/admin/members/:id/refund',
    'GET /api/admin/staff',
    'POST /api/admin/staff',
    'POST /api/admin/staff/:id/role',
    'DELETE /api/admin/staff/:id',
    'DELETE /api/admin/staff/:id/two-factor-lock',
    'POST /api/admin/two-factor/required',
    'GET /api/admin/offers',
    'POST /api/admin/offers',
    'POST /api/admin/offers/:id/end',
    'GET /api/admin/trials',
    'PUT /api/admin/trials',
    'GET /api/admin/team-prices',
    'PUT /api/admin/team-prices',
    'POST /api/admin/team-quotes',
  ]);

  it('has the policy agree with the areas written out here', () => {
    expect([...STAFF_AREAS].sort()).toEqual([...OWNER_AREAS, ...EDITOR_AREAS].sort());
    for (const area of OWNER_AREAS) expect(mayEnterStaffArea(editorViewer, area as StaffArea), area).toBe(false);
    for (const area of EDITOR_AREAS) expect(mayEnterStaffArea(editorViewer, area as StaffArea), area).toBe(true);
  });

  it('declares who may call each one, and answers visitors 401, members 403, and editors 403 on every owner route', async () => {
    const adminRoutes = t.app.routeAccess.filter((route) => route.url.startsWith('/api/admin/'));
    expect(adminRoutes.length).toBeGreaterThan(30);
    const names = new Set(adminRoutes.map((route) => `${route.method} ${route.url}`));
    // Every owner route listed is still there (a renamed one is named again here).
    for (const name of OWNER_ONLY_ROUTES) expect(names, name).toContain(name);
    for (const route of adminRoutes) {
      const name = `${route.method} ${route.url}`;
      if (PUBLIC_ADMIN_ROUTES.has(name)) continue;
      expect(route.access, `${name} declares no access`).toBeDefined();
      // A route that names an owner's area is on the list; one that names an editor's area is not.
      const area = typeof route.access === 'object' ? route.access.area : undefined;
      if (area) expect(OWNER_AREAS.includes(area), name).toBe(OWNER_ONLY_ROUTES.has(name));
      const call = (headers: Headers) =>
        request(route.method as 'GET', filled(route.url), headers, route.method === 'GET' ? undefined : {});
      expect((await call({})).statusCode, name).toBe(401);
      expect((await call(member.headers)).statusCode, name).toBe(403);
      const asEditor = await call(editor);
      if (OWNER_ONLY_ROUTES.has(name)) {
        expect(asEditor.statusCode, name).toBe(403);
        expect(asEditor.json(), name).toEqual({ detail: OWNER_ONLY });
      } else expect(asEditor.statusCode, name).not.toBe(403);
      expect([401, 403], name).not.toContain((await call(owner)).statusCode);
    }
  });

  it('refuses an editor the members export before any of it is sent', async () => {
    const refused = await request('GET', '/api/admin/members/export.csv', editor);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json()).toEqual({ detail: OWNER_ONLY });
  });

  it('shows editors the content changes of the activity log only: no member, billing or staff entry', async () => {
    await request('POST', `/api/admin/members/${member.memberId}/tier`, owner, { membership_tier: 'silver' });
    const hero = { headline: 'Edited by an editor', subheadline: 'Still the same promise', cta_text: 'Start now' };
    const saved = await request('POST', '/api/admin/content/homepage_hero', editor, hero);
    expect(saved.statusCode, saved.body).toBe(200);
    const ownerSees = (await request('GET', '/api/admin/activity', owner)).json() as { action: string; target: string }[];
    const editorSees = (await request('GET', '/api/admin/activity', editor)).json() as { action: string; target: string }[];
    expect(ownerSees.map((entry) => entry.action)).toEqual(expect.arrayContaining(['member.tier', 'content.update']));
    expect(editorSees.map((entry) => entry.action)).toContain('content.update');
    expect(editorSees.every((entry) => /^(content|course|lesson|file|podcast|resource)\./.test(entry.action))).toBe(true);
    expect(JSON.stringify(editorSees)).not.toContain(member.email);
  });
});

describe("the owners' staff list", () => {
  /** Every page from the first, following `Link: <...>; rel="next"`, as the API answers them. */
  async function everyPage(): Promise<{ accounts: StaffAccount[]; next: string | null }[]> {
    const pages: { accounts: StaffAccount[]; next: string | null }[] = [];
    let url: string | null = '/api/admin/staff';
    while (url && pages.length < 20) {
      const response = await request('GET', url, owner);
      expect(response.statusCode, response.body).toBe(200);
      const link = response.headers.link as string | undefined;
      const next = link ? /^<(\/api\/admin\/staff\?before=[\w-]+)>; rel="next"$/.exec(link)?.[1] : undefined;
      if (link) expect(next, link).toBeDefined();
      pages.push({ accounts: response.json(), next: next ?? null });
      url = next ?? null;
    }
    return pages;
  }

  it('is a page at a time, oldest first, every account once', async () => {
    // Enough editors for three pages, several made at the same moment (the id breaks the tie), some
    // a microsecond apart (a cursor that lost the microseconds would skip or repeat them).
    await t.db.execute(sql`
      insert into staff_accounts (email, password_hash, role, created_at)
      select 'paged-editor-' || g || '@example.com', 'not a password hash', 'editor',
             timestamptz '2020-01-01 00:00:00+00' + interval '1 microsecond' * (g / 3)
      from generate_series(1, ${PAGE_SIZE.staffList * 2 + 5}) as g`);
    const expected = (
      (await t.db.execute(sql`select id from staff_accounts order by created_at, id`)) as unknown as { rows: { id: string }[] }
    ).rows.map((row) => row.id);

    const pages = await everyPage();
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages.slice(0, -1)) expect(page.accounts).toHaveLength(PAGE_SIZE.staffList);
    expect(pages.at(-1)!.next).toBeNull();
    const shown = pages.flatMap((page) => page.accounts.map((account) => account.id));
    expect(shown).toEqual(expected);
    expect(new Set(shown).size).toBe(shown.length);
    // The owner asking is marked on whichever page shows them, and only there.
    expect(pages.flatMap((page) => page.accounts).filter((account) => account.you)).toEqual([expect.objectContaining({ id: ownerId })]);
  });

  it('refuses a broken page link with a 400 that says to start again', async () => {
    const [first] = await everyPage();
    const values = JSON.parse(
      Buffer.from(new URL(first!.next!, 'http://site.invalid').searchParams.get('before')!, 'base64url').toString(),
    );
    const broken = [
      'abc',
      Buffer.from('["x"]').toString('base64url'),
      Buffer.from(JSON.stringify(['2024-13-45 25:61:61+00', values[1]])).toString('base64url'),
      Buffer.from(JSON.stringify([values[0], 'not-an-id'])).toString('base64url'),
    ];
    for (const cursor of broken) {
      const refused = await request('GET', `/api/admin/staff?before=${cursor}`, owner);
      expect(refused.statusCode, cursor).toBe(400);
      expect(refused.json().detail).toBe(INVALID_CURSOR);
    }
  });
});
