import { AsyncLocalStorage } from 'node:async_hooks';

const running = new AsyncLocalStorage<string>();

/**
 * Runs scheduled work (the minute's reminders, the daily checks) under its name, so whatever runs
 * inside it can tell it from a request's own work: the tests' query recorder leaves it out.
 */
export const runInBackground = <T>(job: string, work: () => Promise<T>): Promise<T> => running.run(job, work);

/** The scheduled job the current code runs for, if any. */
export const backgroundJob = (): string | undefined => running.getStore();
