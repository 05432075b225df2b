import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { loggableError } from './loggable-error.ts';
import type { RunsAlone } from './repositories.ts';
import { SCHEDULE, type JobName, type MinuteStep } from './jobs/schedule.ts';

const running = new AsyncLocalStorage<string>();

/**
 * Runs scheduled work (the minute's reminders, the daily checks) under its name, so whatever runs
 * inside it can tell it from a request's own work: the tests' query recorder leaves it out.
 */
const runInBackground = <T>(job: string, work: () => Promise<T>): Promise<T> => running.run(job, work);

/** The scheduled job the current code runs for, if any. */
export const backgroundJob = (): string | undefined => running.getStore();

/** What /metrics says of each job and minute step: its last run, how long it took, its runs and failures. */
export interface JobRecord {
  lastStartedAt: number;
  lastDurationMs: number;
  runs: number;
  failures: number;
}
export const jobRecords = new Map<string, JobRecord>();

/** Runs one job or step, keeping its record (a failure is counted, then thrown on). */
async function recorded<T>(name: string, work: () => Promise<T>): Promise<T> {
  const record = jobRecords.get(name) ?? { lastStartedAt: 0, lastDurationMs: 0, runs: 0, failures: 0 };
  jobRecords.set(name, record);
  record.lastStartedAt = Date.now();
  const started = performance.now();
  try {
    return await work();
  } catch (error) {
    record.failures += 1;
    throw error;
  } finally {
    record.runs += 1;
    record.lastDurationMs = performance.now() - started;
  }
}

/**
 * Runs each step in turn, each recorded on its own: a step that fails does not keep the next from
 * running; the failures are thrown together at the end, for the job's log line.
 */
export async function runSteps(steps: [MinuteStep, () => Promise<unknown>][]): Promise<void> {
  const failed: { step: string; error: unknown }[] = [];
  for (const [step, work] of steps) {
    await recorded(step, work).catch((error: unknown) => failed.push({ step, error }));
  }
  if (failed.length > 0) {
    throw new AggregateError(
      failed.map((failure) => failure.error),
      `${failed.map((failure) => failure.step).join(', ')} failed`,
    );
  }
}

/**
 * Runs `work` as the scheduled job `name` (server/jobs/schedule.ts): once its `firstAfterMs` after
 * start, then every `everyMs`, until the server closes, never two turns at once; a job that runs
 * `alone` runs in one process at a time (the others skip that turn). A failure is logged with
 * `onFailure` and the next turn tries again.
 */
export function scheduleRepeating(
  app: FastifyInstance,
  job: { name: JobName; onFailure: string; alone?: RunsAlone },
  work: () => Promise<void>,
): void {
  const { firstAfterMs, everyMs, alone } = SCHEDULE[job.name];
  // The schedule says which jobs run in one process at a time: a call that disagrees is a mistake.
  if (alone !== (job.alone !== undefined))
    throw new Error(`The job '${job.name}' runs ${alone ? 'alone' : 'in every process'}: see server/jobs/schedule.ts`);
  // A turn still running when the next is due is not joined by a second one.
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await recorded(job.name, () =>
        runInBackground(job.name, () => (job.alone ? job.alone.runAlone(job.name, work).then(() => {}) : work())),
      );
    } catch (error) {
      app.log.warn({ err: loggableError(error) }, job.onFailure);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), firstAfterMs);
  const every = setInterval(() => void run(), everyMs);
  first.unref();
  every.unref();
  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
