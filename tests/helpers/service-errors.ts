import { expect } from 'vitest';
import { ServiceError } from '../../common/errors.ts';

// What service tests (server/**/*.service.test.ts) share: reading a refusal (the viewers come from test-app.ts).

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
