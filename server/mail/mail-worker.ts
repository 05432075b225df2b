import type { FastifyInstance } from 'fastify';
import { loggableError } from '../http/errors.ts';
import type { OutboxRepository } from './outbox.repository.ts';
import type { MailTransport } from './transport.ts';

export interface MailWorkerTiming {
  /** How often the outbox is checked (a message queued in this process is sent at once). */
  pollMs: number;
  /** The wait after the first failed try; it doubles with each further one. */
  retryBaseMs: number;
}

const BATCH = 10;
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;
const MAX_RETRY_WAIT_MS = 60 * 60 * 1000;

/** The wait before try number `attempt + 1`, after `attempt` failures. */
export const retryDelay = (attempt: number, baseMs: number) => Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_WAIT_MS);

/**
 * Delivers the outbox: claims due messages (each by one process only, for a lease), sends them,
 * and marks each sent, or schedules another try with a growing wait. A message claimed by a process
 * that died is taken over when its lease ends, so a restart loses nothing.
 */
export function startMailWorker(app: FastifyInstance, outbox: OutboxRepository, transport: MailTransport, timing: MailWorkerTiming) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliverDue() {
    for (;;) {
      const claimed = await outbox.claimDue(BATCH, new Date(Date.now() + LEASE_MS));
      for (const message of claimed) {
        try {
          await transport.send({ ...message, to: message.toAddress });
          await outbox.markSent(message.id);
        } catch (error) {
          const attempt = message.attempts + 1;
          const next = attempt >= MAX_ATTEMPTS ? null : new Date(Date.now() + retryDelay(attempt, timing.retryBaseMs));
          await outbox.markFailedAttempt(message.id, (error as Error).message ?? String(error), next);
          app.log.warn(
            { err: loggableError(error), message: message.id, attempt, retry: next?.toISOString() ?? 'no more tries' },
            'sending an email failed',
          );
        }
      }
      if (claimed.length < BATCH || stopped) return;
    }
  }

  /** Runs a delivery round now (or right after the one under way). */
  function nudge() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDue()
      .catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'the mail outbox could not be read; trying again later'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          nudge();
        }
      });
  }

  const timer = setInterval(nudge, timing.pollMs);
  timer.unref();
  app.addHook('onReady', async () => nudge());
  app.addHook('onClose', async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    transport.close();
  });
  return { nudge };
}
