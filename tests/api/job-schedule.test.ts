import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMinuteJobs } from '../../server/coaching/coaching-jobs.ts';
import { MINUTE_STEPS, SCHEDULE } from '../../server/jobs/schedule.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createNotifier } from '../../server/notifications/notifier.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// One schedule for the work that runs by itself (issue: 'Run the business by its numbers', part 3):
// every job and minute step is listed in server/jobs/schedule.ts and in the README, and /metrics
// tells each one's last run, its duration and its failures.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

const metric = (text: string, name: string, job: string) =>
  Number(new RegExp(`^${name}\\{job="${job}"\\} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

describe('the schedule', () => {
  it('has /metrics tell each minute step its last run, duration and failures', async () => {
    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    const startedBy = Date.now() / 1000;
    await runMinuteJobs(createDataAccess(t.db), mailer, createNotifier({ mailer, nudgePush: () => {} }));
    const text = (await t.app.inject({ url: '/metrics' })).body;
    for (const step of Object.keys(MINUTE_STEPS)) {
      expect(metric(text, 'job_runs', step), step).toBeGreaterThanOrEqual(1);
      expect(metric(text, 'job_failures', step), step).toBe(0);
      expect(metric(text, 'job_last_run_timestamp_seconds', step), step).toBeGreaterThanOrEqual(Math.floor(startedBy));
      expect(metric(text, 'job_last_duration_seconds', step), step).toBeGreaterThanOrEqual(0);
    }
  });

  it('is the README’s: every job and step is described there', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    for (const name of [...Object.keys(SCHEDULE), ...Object.keys(MINUTE_STEPS)]) expect(readme, name).toContain(`\`${name}\``);
  });
});
