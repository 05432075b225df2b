import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lesson, StaffCourseDetail } from '../../common/courses.contract.ts';
import { TOO_MANY_OUTSIDE_ENTRIES, type CeEntryView, type LicenceStanding } from '../../common/licence.contract.ts';
import { LICENCES } from '../../common/licence-limits.ts';
import { addDays, localDateOf } from '../../common/time-zones.ts';
import type { TeamView } from '../../common/teams.contract.ts';
import {
  auditLog,
  ceEntries,
  ceRemindersSent,
  members,
  notifications,
  outboxMessages,
  storedFilesReleased,
  teamMembers,
  teams,
} from '../../db/schema.ts';
import { deleteReleasedFiles, sendRenewalReminders } from '../../server/licence/licence-reminders.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { multipartBody, PDF_BYTES, PNG_BYTES } from '../helpers/multipart.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The continuing-education ledger (issue: 'Learning that counts', part 4): licences, each state's
// requirement, courses approved per state, outside CE with its certificate, totals per topic, renewal
// reminders once, the commission's transcript and zip, and the broker's view of it.

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
const ZONE = 'America/Chicago';
const today = () => localDateOf(new Date(), ZONE);

/** A state's requirement, as staff keep it: 18 hours every 2 years, 3 of ethics and 2 of fair housing. */
const TEXAS = {
  hours_per_cycle: 18,
  cycle_months: 24,
  topics: [
    { topic: 'ethics', min_hours: 3 },
    { topic: 'fair_housing', min_hours: 2 },
  ],
  note: 'Legal update I and II count as 8 hours.',
  commission_address: 'Texas Real Estate Commission, 1700 N Congress Ave, Austin, TX',
  check_with_commission: true,
};

async function memberWithLicence(state = 'TX', renewsInDays = 400): Promise<MemberLogin & { licence: LicenceStanding }> {
  const member = await t.loginAs('free');
  await t.db.update(members).set({ timeZone: ZONE }).where(eq(members.id, member.memberId));
  const added = await request('POST', '/api/licence/licences', member.headers, {
    state,
    licence_type: 'salesperson',
    licence_number: 'SP-778812',
    renews_on: addDays(today(), renewsInDays),
  });
  expect(added.statusCode, added.body).toBe(201);
  return { ...member, licence: added.json() };
}

function outside(member: MemberLogin, fields: Record<string, string>, file: { name: string; content: Buffer } | null) {
  const body = multipartBody(
    {
      state: 'TX',
      provider: 'Lone Star CE',
      course_name: 'Fair housing today',
      hours: '2',
      topic: 'fair_housing',
      completed_on: today(),
      ...fields,
    },
    file && { ...file, field: 'certificate' },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/licence/entries',
    headers: { ...member.headers, ...body.headers },
    payload: body.payload,
  });
}

/** A published free course of one lesson, carrying CE hours approved in the given states. */
async function ceCourse(hours: number, topic: string, approvals: { state: string; approval_number: string }[]) {
  const created = await request('POST', '/api/admin/courses', owner, {
    title: `CE ${topic} ${Math.random()}`,
    description: 'Approved continuing education.',
    category: 'sales',
    tier: 'free',
    instructor: 'Dana Whitfield',
    duration: '3h',
  });
  const courseId = (created.json() as StaffCourseDetail).course.id;
  expect(
    (
      await request('POST', `/api/admin/courses/${courseId}/lessons`, owner, {
        title: 'Only lesson',
        duration: '5:00',
        video_url: 'https://videos.example.com/a.mp4',
      })
    ).statusCode,
  ).toBe(201);
  expect((await request('POST', `/api/admin/courses/${courseId}/status`, owner, { status: 'published' })).statusCode).toBe(200);
  const saved = await request('PUT', `/api/admin/courses/${courseId}/ce`, editor, {
    ce_hours: hours,
    ce_topic: topic,
    ce_approvals: approvals,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const [lesson] = (await request('GET', `/api/courses/${courseId}/lessons`, owner)).json() as Lesson[];
  return { courseId, lessonId: lesson!.id };
}

async function complete(member: MemberLogin, course: { courseId: string; lessonId: string }) {
  expect((await request('POST', `/api/courses/${course.courseId}/enrol`, member.headers)).statusCode).toBe(200);
  const done = await request('POST', `/api/lessons/${course.lessonId}/complete`, member.headers);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().certificate_code as string;
}

const ledger = async (member: MemberLogin) => {
  const answer = await request('GET', '/api/licence', member.headers);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as LicenceStanding[];
};

describe('the requirements staff keep', () => {
  it('are kept by editors and owners, checked, and audited; members cannot change them', async () => {
    const member = await t.loginAs('gold');
    expect((await request('PUT', '/api/admin/ce-requirements/TX/salesperson', member.headers, TEXAS)).statusCode).toBe(403);
    expect((await request('PUT', '/api/admin/ce-requirements/XX/salesperson', editor, TEXAS)).json().detail).toBe('Choose a state');
    const tooMuch = await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, {
      ...TEXAS,
      topics: [{ topic: 'ethics', min_hours: 30 }],
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().detail).toBe('The required topics add up to more hours than the cycle asks for');
    const tenths = await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, { ...TEXAS, hours_per_cycle: 18.25 });
    expect(tenths.json().detail).toBe('Hours per cycle may have one decimal at most');

    const saved = await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ state: 'TX', state_name: 'Texas', hours_per_cycle: 18, check_with_commission: true });
    const list = (await request('GET', '/api/admin/ce-requirements', owner)).json() as { state: string }[];
    expect(list.map((each) => each.state)).toContain('TX');
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'ce_requirement.save'), eq(auditLog.target, 'TX:salesperson')));
    expect(entry?.actorEmail).toBeTruthy();
  });
});

describe('a member’s licences', () => {
  it('are their own: another member’s id is not found, and a second licence in a state is refused', async () => {
    const member = await memberWithLicence();
    const other = await t.loginAs('gold');
    const again = await request('POST', '/api/licence/licences', member.headers, {
      state: 'TX',
      licence_type: 'broker',
      renews_on: '2030-01-01',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('You already recorded a licence in this state. Change that one instead.');
    for (const [method, url] of [
      ['PUT', `/api/licence/licences/${member.licence.id}`],
      ['DELETE', `/api/licence/licences/${member.licence.id}`],
      ['GET', `/api/licence/licences/${member.licence.id}/transcript.pdf`],
      ['GET', `/api/licence/licences/${member.licence.id}/certificates.zip`],
    ] as const) {
      const answer = await request(method, url, other.headers, { state: 'TX', licence_type: 'broker', renews_on: '2030-01-01' });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().detail).toBe('Licence not found');
    }
    expect((await request('GET', '/api/licence')).statusCode).toBe(401);
    expect(await ledger(other)).toEqual([]);
    const bad = await request('POST', '/api/licence/licences', other.headers, {
      state: 'TX',
      licence_type: 'salesperson',
      licence_number: 'A\r\nB',
      renews_on: '2030-01-01',
    });
    expect(bad.json().detail).toBe('Licence number must be a single line');
  });
});

describe('the ledger', () => {
  it('counts a completed CE course in the states that approve it, with its certificate and approval number, per topic until renewal', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const member = await memberWithLicence();
    const ethics = await ceCourse(3, 'ethics', [
      { state: 'TX', approval_number: 'TREC-4471' },
      { state: 'OK', approval_number: 'OREC-19' },
    ]);
    const elsewhere = await ceCourse(4, 'agency', [{ state: 'CA', approval_number: 'DRE-1' }]);
    const code = await complete(member, ethics);
    await complete(member, elsewhere);

    const [standing] = await ledger(member);
    expect(standing).toMatchObject({
      state: 'TX',
      licence_number: 'SP-778812',
      hours_required: 18,
      hours_done: 3,
      hours_missing: 15,
      topics: [
        { topic: 'ethics', required: 3, done: 3, missing: 0 },
        { topic: 'fair_housing', required: 2, done: 0, missing: 2 },
      ],
    });
    const entries = (await request('GET', '/api/licence/entries?state=TX', member.headers)).json().items as CeEntryView[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      source: 'course',
      hours: 3,
      topic: 'ethics',
      approval_number: 'TREC-4471',
      certificate_code: code,
      completed_on: today(),
    });
    // Written once per certificate and state: the course's other state has its entry too, the unapproved course none here.
    expect((await request('GET', '/api/licence/entries?state=OK', member.headers)).json().items).toHaveLength(1);
  });

  it('takes CE done elsewhere with its certificate, which only its member and the owners may open', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const member = await memberWithLicence();
    const added = await outside(member, {}, { name: 'fair-housing.pdf', content: PDF_BYTES });
    expect(added.statusCode, added.body).toBe(201);
    const entry = added.json() as CeEntryView;
    expect(entry).toMatchObject({
      source: 'outside',
      provider: 'Lone Star CE',
      hours: 2,
      topic: 'fair_housing',
      certificate_file: { filename: 'fair-housing.pdf' },
    });
    const [standing] = await ledger(member);
    expect(standing!.topics.find((topic) => topic.topic === 'fair_housing')).toMatchObject({ done: 2, missing: 0 });

    const url = entry.certificate_file!.url;
    const own = await request('GET', url, member.headers);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals(PDF_BYTES)).toBe(true);
    expect((await request('GET', url, owner)).statusCode).toBe(200);
    const opened = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.ce_certificate.open'), eq(auditLog.target, member.memberId)));
    expect(opened).toHaveLength(1);
    // Another member, an editor (whose work is content, not members) and a visitor: nothing to see.
    expect((await request('GET', url, (await t.loginAs('gold')).headers)).statusCode).toBe(404);
    expect((await request('GET', url, editor)).statusCode).toBe(404);
    expect((await request('GET', url)).statusCode).toBe(401);
    // Not a public file under any address.
    const [stored] = await t.db.select({ key: ceEntries.certificateKey }).from(ceEntries).where(eq(ceEntries.id, entry.id));
    expect((await request('GET', `/files/${stored!.key}`)).statusCode).toBe(404);

    // Another member cannot remove it; its member can.
    expect((await request('DELETE', `/api/licence/entries/${entry.id}`, (await t.loginAs('free')).headers)).statusCode).toBe(404);
    expect((await request('DELETE', `/api/licence/entries/${entry.id}`, member.headers)).statusCode).toBe(200);
    expect((await request('GET', url, member.headers)).statusCode).toBe(404);
  });

  it('refuses outside CE without a certificate, a renamed file, a type it does not take, hours in hundredths and a state without a licence', async () => {
    const member = await memberWithLicence();
    const detail = async (fields: Record<string, string>, file: { name: string; content: Buffer } | null) => {
      const answer = await outside(member, fields, file);
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.json().detail as string;
    };
    expect(await detail({}, null)).toBe('Add the certificate you were given (a PDF or a photo).');
    expect(await detail({}, { name: 'certificate.pdf', content: PNG_BYTES })).toBe(
      'The file’s content does not match its .pdf extension.'.replace('’', "'"),
    );
    expect(await detail({}, { name: 'certificate.exe', content: PDF_BYTES })).toBe('The certificate must be a PDF, JPEG or PNG file.');
    expect(await detail({ hours: '1.25' }, { name: 'c.png', content: PNG_BYTES })).toBe('Hours may have one decimal at most');
    expect(await detail({ state: 'FL' }, { name: 'c.png', content: PNG_BYTES })).toBe(
      'Record your licence in this state first: outside CE counts toward a licence you hold.',
    );
    expect(await detail({ hours: '0x10' }, { name: 'c.png', content: PNG_BYTES })).toBe('Hours must be a number');
    expect(await detail({ hours: '1e1' }, { name: 'c.png', content: PNG_BYTES })).toBe('Hours must be a number');
    expect(await detail({ completed_on: addDays(today(), 2) }, { name: 'c.png', content: PNG_BYTES })).toBe(
      'The completion date cannot be in the future.',
    );
    expect(await detail({ completed_on: '0001-01-01' }, { name: 'c.png', content: PNG_BYTES })).toBe(
      'Completion date must be between 2000 and 2100',
    );
    expect(await detail({ course_name: 'Fair\u0007housing' }, { name: 'c.png', content: PNG_BYTES })).toBe(
      'Course name must not contain control characters',
    );
  });

  it('counts only the cycle before the renewal date', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const member = await memberWithLicence('TX', 100);
    for (const completed_on of [addDays(today(), -800), addDays(today(), -10)]) {
      expect(
        (await outside(member, { completed_on, topic: 'elective', hours: '1.5' }, { name: 'c.png', content: PNG_BYTES })).statusCode,
      ).toBe(201);
    }
    // An entry after the renewal date (a course completed here and dated so) counts toward the next cycle only.
    await t.db.insert(ceEntries).values({
      memberId: member.memberId,
      state: 'TX',
      source: 'outside',
      provider: 'Elsewhere',
      courseName: 'Next cycle',
      hours: 4,
      topic: 'elective',
      completedOn: addDays(today(), 101),
    });
    const [standing] = await ledger(member);
    expect(standing!.hours_done).toBe(1.5);
    expect(standing!.hours_missing).toBe(16.5);
    expect(standing!.days_to_renewal).toBe(100);
  });
});

describe('the cap on CE done elsewhere', () => {
  it('lets one of two uploads at once take the last place, and refuses the other', async () => {
    const member = await memberWithLicence('TX');
    await t.db.execute(sql`
      insert into ce_entries (member_id, state, source, provider, course_name, hours, topic, completed_on)
      select ${member.memberId}, 'TX', 'outside', 'Elsewhere', 'Course ' || n, 1, 'elective', ${today()}::date
      from generate_series(1, ${LICENCES.maxOutsideEntries - 1}) as n`);
    const answers = await Promise.all([
      outside(member, { course_name: 'The last place' }, { name: 'a.pdf', content: PDF_BYTES }),
      outside(member, { course_name: 'One too many' }, { name: 'b.pdf', content: PDF_BYTES }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().detail).toBe(TOO_MANY_OUTSIDE_ENTRIES);
    const [kept] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(ceEntries)
      .where(and(eq(ceEntries.memberId, member.memberId), eq(ceEntries.source, 'outside')));
    expect(kept!.count).toBe(LICENCES.maxOutsideEntries);
  });
});

describe('a member’s certificate files', () => {
  it('leave the file store with their entry or their account, once the daily job runs', async () => {
    const member = await memberWithLicence();
    const added = await outside(member, {}, { name: 'kept.pdf', content: PDF_BYTES });
    expect(added.statusCode, added.body).toBe(201);
    const [stored] = await t.db.select({ key: ceEntries.certificateKey }).from(ceEntries).where(eq(ceEntries.id, added.json().id));
    const file = path.join(t.dataDir, 'uploads', stored!.key!);
    expect(fs.existsSync(file)).toBe(true);
    const deleted = await request('POST', '/api/account/delete', member.headers, { password: member.password });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await deleteReleasedFiles(createDataAccess(t.db), t.app.storage);
    expect(fs.existsSync(file)).toBe(false);
    expect(await t.db.select().from(storedFilesReleased).where(eq(storedFilesReleased.storageKey, stored!.key!))).toEqual([]);
  });
});

describe('renewal reminders', () => {
  it('tell a member with hours missing once per stage, whichever of two processes looks, and not one whose hours are done', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const behind = await memberWithLicence('TX', 85);
    const done = await memberWithLicence('TX', 85);
    await t.db.execute(sql`insert into ce_entries (member_id, state, source, provider, course_name, hours, topic, completed_on)
      values (${done.memberId}, 'TX', 'outside', 'Elsewhere', 'Everything', 13, 'elective', ${today()}),
             (${done.memberId}, 'TX', 'outside', 'Elsewhere', 'Ethics', 3, 'ethics', ${today()}),
             (${done.memberId}, 'TX', 'outside', 'Elsewhere', 'Fair housing', 2, 'fair_housing', ${today()})`);

    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    await Promise.all([sendRenewalReminders(createDataAccess(t.db), mailer), sendRenewalReminders(createDataAccess(t.db), mailer)]);
    await sendRenewalReminders(createDataAccess(t.db), mailer);

    const told = (memberId: string) =>
      t.db
        .select({ title: notifications.title, body: notifications.body, url: notifications.url })
        .from(notifications)
        .where(eq(notifications.memberId, memberId));
    const [reminder, ...more] = await told(behind.memberId);
    expect(more).toEqual([]);
    expect(reminder).toMatchObject({ title: '18 CE hours to go for your Texas licence', url: '/licence' });
    expect(reminder!.body).toContain('in 85 days');
    expect(reminder!.body).toContain('Ethics 3, Fair housing 2');
    expect(await told(done.memberId)).toEqual([]);
    const mails = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, behind.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['18 CE hours to go for your Texas licence']);
    const stages = await t.db.select().from(ceRemindersSent).where(eq(ceRemindersSent.memberId, behind.memberId));
    expect(stages.map((stage) => stage.daysBefore)).toEqual([90]);

    // At 30 days the next stage tells again, once; a new renewal date starts its own stages.
    await t.db.execute(sql`update member_licences set renews_on = renews_on - 60 where id = ${behind.licence.id}`);
    await sendRenewalReminders(createDataAccess(t.db), mailer);
    await sendRenewalReminders(createDataAccess(t.db), mailer);
    expect(await told(behind.memberId)).toHaveLength(2);

    // Moving the date a little, or removing the licence and adding it again, asks for no new reminder.
    const licences = async () => (await ledger(behind))[0]!;
    const moved = await request('PUT', `/api/licence/licences/${behind.licence.id}`, behind.headers, {
      state: 'TX',
      licence_type: 'salesperson',
      renews_on: addDays((await licences()).renews_on, 3),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await sendRenewalReminders(createDataAccess(t.db), mailer);
    const renewsOn = (await licences()).renews_on;
    expect((await request('DELETE', `/api/licence/licences/${behind.licence.id}`, behind.headers)).statusCode).toBe(200);
    const again = await request('POST', '/api/licence/licences', behind.headers, {
      state: 'TX',
      licence_type: 'salesperson',
      renews_on: renewsOn,
    });
    expect(again.statusCode, again.body).toBe(201);
    await sendRenewalReminders(createDataAccess(t.db), mailer);
    expect(await told(behind.memberId)).toHaveLength(2);
  });
});

describe('download for the commission', () => {
  it('is a PDF transcript of the cycle and a zip of its certificates, for the licence’s member only', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const member = await memberWithLicence();
    const course = await ceCourse(3, 'ethics', [{ state: 'TX', approval_number: 'TREC-4471' }]);
    const code = await complete(member, course);
    expect((await outside(member, { course_name: 'Fair housing in practice' }, { name: 'fh.png', content: PNG_BYTES })).statusCode).toBe(
      201,
    );

    const pdf = await request('GET', `/api/licence/licences/${member.licence.id}/transcript.pdf`, member.headers);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Continuing education transcript');
    expect(text).toContain('Licence: Texas, Salesperson, number SP-778812');
    expect(text).toContain('TREC-4471');
    expect(text).toMatch(new RegExp(`Certificate ${code}, verify at https?://[^/]+/certificates/${code}`));
    expect(text).toContain('Fair housing in practice');
    expect(text).toContain('Hours completed: 5; still missing: 13');

    const zip = await request('GET', `/api/licence/licences/${member.licence.id}/certificates.zip`, member.headers);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const names = Object.keys(files).sort();
    expect(names).toHaveLength(2);
    expect(names.some((name) => name.endsWith('Fair housing in practice.png'))).toBe(true);
    expect(Buffer.from(files[names.find((name) => name.endsWith('.png'))!]!).equals(PNG_BYTES)).toBe(true);
    expect(
      Buffer.from(files[names.find((name) => name.endsWith('.pdf'))!]!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});

describe('a broker', () => {
  it('sees whether each agent is on track for their licence, and nothing else of the ledger', async () => {
    await request('PUT', '/api/admin/ce-requirements/TX/salesperson', editor, TEXAS);
    const broker = await t.loginAs('free');
    const agent = await memberWithLicence('TX', 300);
    const [team] = await t.db
      .insert(teams)
      .values({
        name: 'Hill Country Realty',
        brokerId: broker.memberId,
        tier: 'silver',
        period: 'monthly',
        seats: 5,
        pricePerSeatCents: 4900,
        status: 'active',
      })
      .returning();
    await t.db.insert(teamMembers).values({ teamId: team!.id, memberId: agent.memberId });
    const view = (await request('GET', '/api/teams/mine', broker.headers)).json() as TeamView;
    const seen = view.agents.find((each) => each.id === agent.memberId)!;
    expect(seen.licences).toEqual([{ state: 'TX', licence_type: 'salesperson', known: true, hours_missing: 18, on_track: false }]);
    expect(JSON.stringify(view)).not.toContain('SP-778812');
    // The agent's ledger itself stays theirs.
    expect((await request('GET', `/api/licence/licences/${agent.licence.id}/transcript.pdf`, broker.headers)).statusCode).toBe(404);
  });
});

describe('a course’s CE', () => {
  it('needs its certificate, and hours and a topic for the states that approve it', async () => {
    const course = await ceCourse(1, 'elective', []);
    const noHours = await request('PUT', `/api/admin/courses/${course.courseId}/ce`, editor, {
      ce_hours: null,
      ce_topic: null,
      ce_approvals: [{ state: 'TX', approval_number: '1' }],
    });
    expect(noHours.json().detail).toBe('Give the CE hours and topic for the states that approve this course.');
    await request('PATCH', `/api/admin/courses/${course.courseId}`, owner, { certificate: false });
    const noCertificate = await request('PUT', `/api/admin/courses/${course.courseId}/ce`, editor, {
      ce_hours: 2,
      ce_topic: 'agency',
      ce_approvals: [],
    });
    expect(noCertificate.json().detail).toBe('A course that counts for CE issues a certificate: turn on "Certificate included" first.');
    const member = await t.loginAs('bronze');
    expect(
      (
        await request('PUT', `/api/admin/courses/${course.courseId}/ce`, member.headers, {
          ce_hours: 2,
          ce_topic: 'agency',
          ce_approvals: [],
        })
      ).statusCode,
    ).toBe(403);
  });
});
