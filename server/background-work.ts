import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { loggableError } from './loggable-error.ts';
import type { RunsAlone } from './repositories.ts';

const running = new AsyncLocalStorage<string>();

/**
 * Runs scheduled work (the minute's reminders, the daily checks) under its name, so whatever runs
 * inside it can tell it from a request's own work: the tests' query recorder leaves it out.
 */
const runInBackground = <T>(job: string, work: () => Promise<T>): Promise<T> => running.run(job, work);

/** The scheduled job the current code runs for, if any. */
export const backgroundJob = (): string | undefined => running.getStore();

/**
 * Runs `work` as the scheduled job `job`: once `firstAfterMs` after start, then every `everyMs`,
 * until the server closes, never two turns at once; with `alone`, in one process at a time (the
 * others skip that turn). A failure is logged with `onFailure` and the next turn tries again.
 */
export function scheduleRepeating(
  app: FastifyInstance,
  job: { name: string; firstAfterMs: number; everyMs: number; onFailure: string; alone?: RunsAlone },
  work: () => Promise<void>,
): void {
  // A turn still running when the next is due is not joined by a second one.
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await runInBackground(job.name, () => (job.alone ? job.alone.runAlone(job.name, work).then(() => {}) : work()));
    } catch (error) {
      app.log.warn({ err: loggableError(error) }, job.onFailure);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), job.firstAfterMs);
  const every = setInterval(() => void run(), job.everyMs);
  first.unref();
  every.unref();
  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
