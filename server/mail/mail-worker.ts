import type { FastifyInstance } from 'fastify';
import { MAIL_DELIVERY } from '../../common/limits.ts';
import { loggableError } from '../loggable-error.ts';
import type { PreparedMail } from './link-minting.ts';
import type { OutboxRepository, OutboxRow } from './outbox.repository.ts';
import type { MailTransport } from './transport.ts';

export interface MailWorkerTiming {
  /** How often the outbox is checked (a message queued in this process is sent at once). */
  pollMs: number;
  /** The wait after the first failed try; it doubles with each further one. */
  retryBaseMs: number;
}

/** The wait before try number `attempt + 1`, after `attempt` failures. */
export const retryDelay = (attempt: number, baseMs: number) => Math.min(baseMs * 2 ** (attempt - 1), MAIL_DELIVERY.maxRetryWaitMs);

/** The mail server refused this message for good (an SMTP 5xx answer), rather than being away. */
const refusedForGood = (error: unknown) => {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/** Whether to try again: a refusal a few times, an outage until the message is days old. */
export function triesLeft(error: unknown, attempt: number, createdAt: Date, now = Date.now()): boolean {
  if (refusedForGood(error)) return attempt < MAIL_DELIVERY.maxRefusals;
  return now - createdAt.getTime() < MAIL_DELIVERY.maxAgeMs;
}

/**
 * Delivers the outbox: claims due messages (each by one process only, for a lease), sends them,
 * and marks each sent, or schedules another try with a growing wait. A message claimed by a process
 * that died is taken over when its lease ends, so a restart loses nothing.
 */
export function startMailWorker(
  app: FastifyInstance,
  outbox: OutboxRepository,
  transport: MailTransport,
  timing: MailWorkerTiming,
  /** Readies a message as it is sent: its link minted, or a reason not to send it (link-minting.ts). */
  prepare: (message: OutboxRow) => Promise<PreparedMail>,
) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliverDue() {
    for (;;) {
      const claimed = await outbox.claimDue(MAIL_DELIVERY.batch, new Date(Date.now() + MAIL_DELIVERY.leaseMs));
      for (const [index, message] of claimed.entries()) {
        // Stopping: what is claimed and unsent goes back at once, for another process to send.
        if (stopped) return outbox.release(claimed.slice(index).map((each) => each.id));
        try {
          const prepared = await prepare(message);
          if ('drop' in prepared) {
            await outbox.markDropped(message.id, prepared.drop);
            continue;
          }
          await transport.send(prepared.send);
          await outbox.markSent(message.id, prepared.composed);
        } catch (error) {
          const attempt = message.attempts + 1;
          const next = triesLeft(error, attempt, message.createdAt) ? new Date(Date.now() + retryDelay(attempt, timing.retryBaseMs)) : null;
          await outbox.markFailedAttempt(message.id, (error as Error).message ?? String(error), next);
          app.log.warn(
            { err: loggableError(error), message: message.id, attempt, retry: next?.toISOString() ?? 'no more tries' },
            'sending an email failed',
          );
          // The server is away, not this message: one try per round until it is back, not a whole batch of waits.
          if (!refusedForGood(error)) return outbox.release(claimed.slice(index + 1).map((each) => each.id));
        }
      }
      if (claimed.length < MAIL_DELIVERY.batch || stopped) return;
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
  // Before the database closes: the round under way finishes its message and hands back the rest.
  app.addHook('preClose', async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  });
  app.addHook('onClose', async () => {
    transport.close();
  });
  return { nudge };
}
