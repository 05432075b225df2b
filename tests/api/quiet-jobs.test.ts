import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataVersions } from '../../db/schema.ts';
import { removeLapsedMembers } from '../../server/accounts/data-retention.ts';
import { runMinuteJobs } from '../../server/coaching/coaching-jobs.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createNotifier } from '../../server/notifications/notifier.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createSessionsRepository } from '../../server/sessions/sessions.repository.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The jobs that run on their own (every minute, every hour) in every process. A run with nothing
// due must change no data version: each process keeps visitors' pages, members' pages and sessions
// while their versions hold, and serves the kept pages while the database is away. A job that
// touched a watched table for nothing each minute would throw them all away, every minute.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Some members and staff, so that each job finds people to consider and nothing due for them.
  await Promise.all([t.loginAs('free'), t.loginAs('gold'), t.loginAs('silver'), t.loginAsStaff()]);
});
afterAll(() => t.close());

const purgeSessions = () => createSessionsRepository(t.db).deleteUnusable(new Date(Date.now() - 30 * 24 * 60 * 60 * 1000));
const versions = async () => Object.fromEntries((await t.db.select().from(dataVersions)).map((row) => [row.name, row.version]));

describe('the scheduled jobs, with nothing due', () => {
  it('leave every data version where it was, so no kept page or session goes stale', async () => {
    const data = createDataAccess(t.db);
    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    const notifier = createNotifier({ mailer, nudgePush: () => {} });
    // The first run may have work (sessions to plan weeks ahead, news to hand out): the next has none.
    await runMinuteJobs(data, mailer, notifier);
    await purgeSessions();
    const before = await versions();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['public', 'member', 'session']));

    await runMinuteJobs(data, mailer, notifier);
    await purgeSessions();
    await removeLapsedMembers(data);

    expect(await versions()).toEqual(before);
  });
});
