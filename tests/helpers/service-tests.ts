import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BillingAdminService, Plan, SubscriptionView } from '../../common/billing.contract.ts';
import type { SeriesInput } from '../../common/coaching.contract.ts';
import type { CourseInput, CourseStatus, LessonInput } from '../../common/courses.contract.ts';
import { ServiceError } from '../../common/errors.ts';
import type { UploadFolder } from '../../common/files.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import { localTimeOf } from '../../common/time-zones.ts';
import { OWNER_ONLY } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import { auditLog, uploadedFiles } from '../../db/schema.ts';
import { createBillingAdminService } from '../../server/billing/billing-admin.service.ts';
import { createBillingService, type ServerBillingService } from '../../server/billing/billing.service.ts';
import { StripeGateway } from '../../server/billing/stripe-gateway.ts';
import { AttemptLimiter } from '../../server/http/attempt-limiter.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { startFakeStripe, type FakeStripe } from './stripe-server.ts';
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

/**
 * A course as staff build it (an editor writes it): created with these fields, then its lessons, in
 * order, then the status (a draft stays one). Answers the staff's view: the course and its lessons.
 */
export async function authoredCourse(
  t: TestApp,
  course: Partial<CourseInput> & { title: string },
  lessons: (Partial<LessonInput> & { title: string })[],
  status: CourseStatus = 'published',
) {
  const authoring = t.app.services.courseAuthoring;
  const editor = await t.asStaff('editor');
  const made = await authoring.create(editor, {
    description: `${course.title}, step by step.`,
    category: 'sales',
    tier: 'free',
    instructor: 'Dana Whitfield',
    level: 'beginner',
    duration: '1h',
    certificate: true,
    certificate_shows_score: false,
    thumbnail_file_id: null,
    early_access_until: null,
    prerequisite_course_id: null,
    ...course,
  });
  let detail = made;
  for (const lesson of lessons)
    detail = await authoring.addLesson(editor, made.course.id, {
      kind: 'video',
      captions: [],
      duration: '10:00',
      description: '',
      free_preview: false,
      video_url: '',
      video_file_id: null,
      attachment_file_ids: [],
      opens_after_days: null,
      opens_on: null,
      ...lesson,
    });
  return status === 'draft' ? detail : authoring.setStatus(editor, made.course.id, status);
}

/** A row of the file library (no content stored), as an upload leaves it: a members-only PDF unless told. */
export async function libraryFile(
  t: Pick<TestApp, 'db'>,
  file: { filename?: string; folder?: UploadFolder; contentType?: string; accessTier?: Tier | null } = {},
): Promise<string> {
  const [row] = await t.db
    .insert(uploadedFiles)
    .values({
      filename: file.filename ?? 'handout.pdf',
      folder: file.folder ?? 'course-materials',
      storageKey: `test/${randomUUID()}`,
      contentType: file.contentType ?? 'application/pdf',
      sizeBytes: 10,
      accessTier: file.accessTier === undefined ? 'bronze' : file.accessTier,
    })
    .returning({ id: uploadedFiles.id });
  return row!.id;
}

/** A start `minutes` from now (rounded down to the minute), as the date and time in UTC the scheduling form sends. */
export function startInMinutes(minutes: number): { date: string; time: string; time_zone: string } {
  const local = localTimeOf(new Date(Date.now() + minutes * 60_000), 'UTC');
  const two = (value: number) => String(value).padStart(2, '0');
  return { date: `${local.year}-${two(local.month)}-${two(local.day)}`, time: `${two(local.hour)}:${two(local.minute)}`, time_zone: 'UTC' };
}

/** What the scheduling form sends for a session `minutesAhead` from now: once, an hour long, for Silver and above, two places, online. */
export function sessionInput(hostStaffId: string, minutesAhead: number, input: Partial<SeriesInput> = {}): SeriesInput {
  return {
    title: 'Pricing clinic',
    description: 'Bring a listing.',
    host_staff_id: hostStaffId,
    ...startInMinutes(minutesAhead),
    duration_minutes: 60,
    min_tier: 'silver',
    capacity: 2,
    weekly: false,
    join_url: 'https://meet.example.com/pricing',
    kind: 'session',
    address: '',
    ...input,
  };
}

/** A live session (sessionInput's) that a new editor schedules and hosts. Answers the staff's view. */
export async function scheduledSession(t: TestApp, minutesAhead: number, input: Partial<SeriesInput> = {}) {
  const editor = await t.asStaff('editor');
  return t.app.services.coachingAdmin.schedule(editor, sessionInput(editor.staff.id, minutesAhead, input));
}

/** Billing with Stripe on: the tests' Stripe, and the members' and owners' billing services wired to it. */
export interface StripeBilling {
  fake: FakeStripe;
  billing: ServerBillingService;
  billingAdmin: BillingAdminService;
  /** The site's address in the links the services make (checkout's return, the portal's). */
  publicUrl: string;
  /** The member pays for the plan: a checkout, paid on Stripe's page (no webhooks), then the billing page's refresh. */
  subscribe(member: Viewer, plan: Plan): Promise<SubscriptionView>;
}

/**
 * Billing as it runs with Stripe on, in process: the services built on the test app's database with
 * the tests' Stripe-compatible server (tests/helpers/stripe-server.ts), which is started before the
 * file's tests and closed after them. Read it in hooks and tests only; call it after serviceTestApp.
 */
export function stripeBillingFor(t: TestApp): StripeBilling {
  let made: StripeBilling | undefined;
  const publicUrl = 'https://learn.realtypocket.test';
  const quiet = { info: () => {}, warn: () => {} };
  beforeAll(async () => {
    const fake = await startFakeStripe();
    const gateway = await StripeGateway.connect(
      { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiBase: fake.url, timeoutMs: 10_000 },
      quiet,
    );
    const data = createDataAccess(t.db);
    const mailer = createMailer({ publicUrl, nudge: () => {} });
    const billing = createBillingService({ data, gateway, mailer, limiter: new AttemptLimiter('service-test:limit'), log: quiet });
    made = {
      fake,
      billing,
      billingAdmin: createBillingAdminService({ data, gateway, mailer, log: quiet }),
      publicUrl,
      async subscribe(member, plan) {
        const { url } = await billing.checkout(member, plan);
        await fake.completeCheckout(new URL(url).pathname.split('/').pop()!, { sendWebhooks: false });
        await billing.refresh(member);
        const subscription = await billing.subscription(member);
        if (!subscription) throw new Error('The paid checkout left no subscription');
        return subscription;
      },
    };
  });
  afterAll(() => made?.fake.close());
  return new Proxy({} as StripeBilling, {
    get(_, key) {
      if (!made) throw new Error('Billing with Stripe is made before the tests: read it in hooks and tests only.');
      return Reflect.get(made, key);
    },
  });
}
