import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { ServiceError } from '../../common/errors.ts';
import { OWNER_ONLY } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import { auditLog } from '../../db/schema.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// What service tests (server/**/*.service.test.ts) share: their app, reading a refusal, and the
// activity log (the viewers come from test-app.ts).

/**
 * The app a service test file calls, on an empty database: made before the file's tests and closed
 * after them. Read it in hooks and tests only; hooks declared after this call may use it.
 */
export function serviceTestApp(): TestApp {
  let made: TestApp | undefined;
  beforeAll(async () => {
    made = await createTestApp({ seed: false });
  });
  afterAll(() => made?.close());
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!made) throw new Error('The test app is made before the tests: read it in hooks and tests only.');
      return Reflect.get(made, key);
    },
  });
}

/**
 * The refusal a service call ends in: its status and message. Fails the test when the call succeeds
 * or throws anything but a ServiceError. Takes the call's promise, or a function for synchronous calls.
 */
export async function refusal(work: Promise<unknown> | (() => unknown)): Promise<{ status: number; message: string }> {
  const error = await Promise.resolve()
    .then(() => (typeof work === 'function' ? work() : work))
    .then(
      () => null,
      (thrown: unknown) => thrown,
    );
  expect(error, 'the call was expected to be refused').toBeInstanceOf(ServiceError);
  return { status: (error as ServiceError).status, message: (error as ServiceError).message };
}

// The refusals of the sign-in guards (common/policies.ts), whose messages have no constant there.
export const SIGN_IN_FIRST = { status: 401, message: 'Please sign in to continue.' };
export const SIGN_IN_AS_STAFF = { status: 401, message: 'Please sign in as an administrator.' };
export const STAFF_ONLY = { status: 403, message: 'This needs an administrator account.' };

/** The answer of the attempt limiter (server/http/attempt-limiter.ts) past a limit, whatever the wait. */
export const TOO_MANY_ATTEMPTS = { status: 429, message: expect.stringMatching(/^Too many attempts\. Please wait \d+ (seconds|minutes)/) };

/**
 * Checks that a staff area's calls are refused to everyone but any staff member, or but owners: a
 * visitor (401), a Gold member (403) and, for owners' areas, an editor (403), each with its guard's
 * message. `calls` gives the calls as this viewer would make them.
 */
export async function expectRefusedToEveryoneBut(
  allowed: 'staff' | 'owners',
  t: TestApp,
  calls: (viewer: Viewer) => (() => unknown)[],
): Promise<void> {
  const refusals: [string, Viewer, object][] = [
    ['a visitor', t.asVisitor(), SIGN_IN_AS_STAFF],
    ['a member', await t.asMember('gold'), STAFF_ONLY],
  ];
  if (allowed === 'owners') refusals.push(['an editor', await t.asStaff('editor'), { status: 403, message: OWNER_ONLY }]);
  for (const [who, viewer, expected] of refusals) {
    for (const call of calls(viewer)) expect(await refusal(call), who).toEqual(expected);
  }
}

/** The latest entry of the activity log with this action, this target, or both; undefined when there is none. */
export async function lastAuditEntry(t: Pick<TestApp, 'db'>, of: { action?: string; target?: string }) {
  const [entry] = await t.db
    .select()
    .from(auditLog)
    .where(
      and(
        of.action === undefined ? undefined : eq(auditLog.action, of.action),
        of.target === undefined ? undefined : eq(auditLog.target, of.target),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}
