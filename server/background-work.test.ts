import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { jobRecords, runSteps, scheduleRepeating } from './background-work.ts';

// The one runner of the work that runs by itself (server/jobs/schedule.ts): each step recorded on its
// own for /metrics, a failing step leaving the next to run, and the schedule's word on who runs alone.

describe('the minute steps', () => {
  it('each run and are recorded, a failing one counted and thrown after the others ran', async () => {
    const ran: string[] = [];
    const before = jobRecords.get('early access')?.failures ?? 0;
    const run = runSteps([
      ['weekly sessions', async () => ran.push('weekly sessions')],
      [
        'early access',
        async () => {
          throw new Error('the database went away');
        },
      ],
      ['course news', async () => ran.push('course news')],
    ]);
    await expect(run).rejects.toThrow('early access failed');
    expect(ran).toEqual(['weekly sessions', 'course news']);
    expect(jobRecords.get('early access')?.failures).toBe(before + 1);
    expect(jobRecords.get('course news')).toMatchObject({ failures: 0 });
    expect(jobRecords.get('course news')!.lastStartedAt).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('a scheduled job', () => {
  it('runs alone exactly when the schedule says so', () => {
    const app = Fastify();
    expect(() => scheduleRepeating(app, { name: 'data-retention', onFailure: 'failed' }, async () => {})).toThrow(
      "The job 'data-retention' runs alone: see server/jobs/schedule.ts",
    );
    const alone = { runAlone: async (_name: string, work: () => Promise<void>) => (await work(), true) };
    expect(() => scheduleRepeating(app, { name: 'minute jobs', onFailure: 'failed', alone }, async () => {})).toThrow(
      "The job 'minute jobs' runs in every process: see server/jobs/schedule.ts",
    );
  });
});
