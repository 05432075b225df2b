import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_ONLY } from '../../common/policies.ts';
import { staffAccounts } from '../../db/schema.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The staff's security settings (two-factor sign-in, recovery codes, their email and password, the
// owners' rule and the lifting of a lock), as someone without the right session would call them, and
// with every kind of broken input: a refusal that says why, never a 500.

let t: TestApp;
let member: MemberLogin;
let owner: Awaited<ReturnType<TestApp['loginAsStaff']>>;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  member = await t.loginAs('gold');
  owner = await t.loginAsStaff({ role: 'owner' });
});
afterAll(() => t.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const lockOf = (id: string) => `/api/admin/staff/${id}/two-factor-lock`;
const ROUTES = [
  ['GET', '/api/admin/two-factor'],
  ['POST', '/api/admin/two-factor/setup'],
  ['POST', '/api/admin/two-factor/enable'],
  ['POST', '/api/admin/two-factor/disable'],
  ['POST', '/api/admin/two-factor/recovery-codes'],
  ['POST', '/api/admin/two-factor/required'],
  ['POST', '/api/admin/account/email'],
  ['POST', '/api/admin/account/password'],
  ['DELETE', lockOf(UNKNOWN)],
] as const;
type Method = (typeof ROUTES)[number][0];

/** A request with this raw JSON text as its body (none when undefined). */
const call = (method: Method, url: string, headers: object, body?: string) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: body,
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const ALL_FIELDS = JSON.stringify({
  code: '123456',
  password: 'x',
  email: 'a@example.com',
  current_password: 'x',
  new_password: 'abcdefgh',
});

/** A refusal a person can read: one sentence, no code, no path into the request, no stack. */
function expectHumanRefusal(answer: { statusCode: number; json(): { detail?: unknown } }, status: number) {
  expect(answer.statusCode).toBe(status);
  const { detail } = answer.json();
  expect(typeof detail).toBe('string');
  expect(detail).toMatch(/^[A-Za-z][^\n{}[\]<>]{5,}$/);
  expect(detail).not.toMatch(/FST_|instancePath|\/body|Error:|at .+:\d+/);
}

describe('who may call them', () => {
  it('answers a visitor 401 and a member 403, before the body is read', async () => {
    for (const [method, url] of ROUTES) {
      for (const body of [ALL_FIELDS, '{"code":']) {
        const visitor = await call(method, url, {}, body);
        expect([url, visitor.statusCode, visitor.json()]).toEqual([url, 401, { detail: 'Please sign in as an administrator.' }]);
        for (const asMember of [member.headers, { cookie: `rp_session=${member.token}` }]) {
          const refused = await call(method, url, asMember, body);
          expect([url, refused.statusCode, refused.json()]).toEqual([url, 403, { detail: 'This needs an administrator account.' }]);
        }
      }
    }
  });

  it('refuses the staff cookie sent by another site to every route that changes something, and stores nothing', async () => {
    const victim = await t.loginAsStaff({ role: 'owner' });
    for (const [method, url] of ROUTES.filter(([verb]) => verb !== 'GET')) {
      for (const from of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }]) {
        const refused = await call(method, url, { cookie: `rp_staff=${victim.token}`, ...from }, ALL_FIELDS);
        expect([url, refused.statusCode, refused.json()]).toEqual([
          url,
          403,
          { detail: 'This request came from another site, so it was refused.' },
        ]);
      }
    }
    const [row] = await t.db.select().from(staffAccounts).where(eq(staffAccounts.id, victim.id));
    expect(row).toMatchObject({ email: victim.email, totpSecret: null, totpEnabledAt: null });
    // The same cookie from the site itself is the staff member's.
    expect(
      (await call('GET', '/api/admin/two-factor', { cookie: `rp_staff=${victim.token}`, 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(200);
  });
});

describe('broken input', () => {
  it.each([
    ['/api/admin/two-factor/enable', 'Enter the code', {}],
    ['/api/admin/two-factor/enable', 'Enter the 6 digits your app shows, or a recovery code', { code: '12345', password: 'x' }],
    ['/api/admin/two-factor/enable', 'Enter your current password', { code: '123456' }],
    ['/api/admin/two-factor/disable', 'Enter the code', { code: 123456, password: 'x' }],
    ['/api/admin/two-factor/disable', 'Password is too long', { code: '123456', password: 'p'.repeat(201) }],
    [
      '/api/admin/two-factor/recovery-codes',
      'Enter the 6 digits your app shows, or a recovery code',
      { code: '1'.repeat(5000), password: 'x' },
    ],
    ['/api/admin/two-factor/required', 'required must be true or false', { required: 'yes' }],
    ['/api/admin/account/email', 'New email is required', { password: 'x' }],
    ['/api/admin/account/email', 'Please enter a valid email address', { email: 'not-an-address', password: 'x' }],
    ['/api/admin/account/email', 'New email is too long', { email: `${'a'.repeat(250)}@example.com`, password: 'x' }],
    ['/api/admin/account/email', 'Enter your current password', { email: 'a@example.com' }],
    ['/api/admin/account/password', 'Must be at least 6 characters', { current_password: 'x', new_password: '12345' }],
    ['/api/admin/account/password', 'Password cannot be only spaces', { current_password: 'x', new_password: '        ' }],
    ['/api/admin/account/password', 'Enter your current password', { new_password: 'abcdefgh' }],
  ])('%s answers 400: %s', async (url, detail, payload) => {
    const answer = await call('POST', url, bearer(owner.token), JSON.stringify(payload));
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ detail });
  });

  it('refuses a body that is not an object, or not JSON, with 400 and a sentence, and changes nothing', async () => {
    for (const [method, url] of ROUTES.filter(([, path]) => !/setup|two-factor$|lock$/.test(path))) {
      for (const body of [undefined, '', '[]', 'null', '"x"', '42', '{"code":', '{"code":"123456",}']) {
        expectHumanRefusal(await call(method, url, bearer(owner.token), body), 400);
      }
      expect((await call(method, url, bearer(owner.token), '{"code":')).json().detail).toBe('The request body is not valid JSON.');
      expect((await call(method, url, bearer(owner.token), '')).json().detail).toBe('The request body is empty.');
    }
    // The account is as it was: the same password and address sign in, two-factor sign-in is still off.
    const again = await call('POST', '/api/admin/login', {}, JSON.stringify({ email: owner.email, password: owner.password }));
    expect(again.statusCode).toBe(200);
    expect((await call('GET', '/api/admin/two-factor', bearer(owner.token))).json()).toMatchObject({ enabled: false, required: false });
  });
});

describe('lifting a two-factor lock', () => {
  it('answers an unknown account 404, a malformed id 400, the owner’s own account 403, and an editor 403 without looking', async () => {
    const owners = bearer(owner.token);
    expect((await call('DELETE', lockOf(UNKNOWN), owners)).json()).toEqual({ detail: 'Staff account not found' });
    expect((await call('DELETE', lockOf(UNKNOWN), owners)).statusCode).toBe(404);
    for (const id of ['nope', '%00', `${UNKNOWN}0`, 'x'.repeat(90)]) {
      const malformed = await call('DELETE', lockOf(id), owners);
      expect([id, malformed.statusCode, malformed.json()]).toEqual([id, 400, { detail: 'Staff id must be a valid id' }]);
    }
    const own = await call('DELETE', lockOf(owner.id), owners);
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toBe('Another owner must lift the lock on your own account.');
    const editor = await t.loginAsStaff({ role: 'editor' });
    for (const id of [UNKNOWN, owner.id]) {
      const refused = await call('DELETE', lockOf(id), bearer(editor.token));
      expect([refused.statusCode, refused.json()]).toEqual([403, { detail: OWNER_ONLY }]);
    }
  });
});

describe('no input', () => {
  it('makes any of these routes answer 500, whoever calls it', async () => {
    const editor = await t.loginAsStaff({ role: 'editor' });
    const sweeper = await t.loginAsStaff({ role: 'owner' });
    const bodies = [
      undefined,
      '{}',
      '[]',
      'null',
      '{"code":',
      JSON.stringify({ code: 123456, password: ['x'], email: 5, current_password: {}, new_password: 1, required: 'yes' }),
      JSON.stringify({
        code: '1'.repeat(5000),
        password: 'p'.repeat(5000),
        email: `${'a'.repeat(5000)}@x.com`,
        new_password: 'q'.repeat(5000),
      }),
      JSON.stringify({
        code: '12345\u0000',
        password: 'a\u0000b',
        email: 'a\u0000@x.com',
        current_password: 'a\u0000',
        new_password: 'abcdefg\u0000',
      }),
      JSON.stringify({
        code: 'abcde-fghij',
        password: '\ud800',
        email: 'ü@ü.ü',
        current_password: '\ud800',
        new_password: '\ud800\ud800\ud800',
      }),
    ];
    const routes = [...ROUTES, ...['nope', '%00', 'x'.repeat(500), editor.id].map((id) => ['DELETE', lockOf(id)] as const)];
    for (const headers of [{}, member.headers, bearer(editor.token), bearer(sweeper.token)]) {
      for (const [method, url] of routes) {
        for (const body of bodies) {
          const answer = await call(method, url, headers, body);
          expect(answer.statusCode, `${method} ${url} ${body?.slice(0, 40)}`).toBeLessThan(500);
          if (answer.statusCode >= 400) expectHumanRefusal(answer, answer.statusCode);
        }
      }
    }
  });
});
