import type { FastifyInstance } from 'fastify';
import { NOTIFICATIONS } from '../../common/limits.ts';
import { mayReadNotification } from '../../common/policies.ts';
import { loggableError } from '../loggable-error.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import { sendPush, type PushSettings } from './push-sender.ts';

/**
 * Delivers the pushes waiting: claims them (each by one process only, for a lease), checks the member
 * may still read what each is about (a member moved off Gold gets no Gold push), sends it, and
 * removes it; a device the push service calls gone is removed with its waiting pushes; a push service
 * away is tried again later with a growing wait, a few times.
 */
export function startPushWorker(app: FastifyInstance, repository: NotificationsRepository, settings: PushSettings, pollMs: number) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliverDue() {
    for (;;) {
      const claimed = await repository.claimDuePushes(NOTIFICATIONS.pushBatch, new Date(Date.now() + NOTIFICATIONS.pushLeaseMs));
      for (const { push, subscription, memberTier } of claimed) {
        if (stopped) return;
        if (!mayReadNotification({ membershipTier: memberTier }, push)) {
          await repository.pushDone(push.id);
          continue;
        }
        const { outcome, status } = await sendPush(settings, subscription, push.payload, NOTIFICATIONS.pushTtlSeconds);
        if (outcome === 'delivered') await repository.pushDone(push.id);
        else if (outcome === 'gone') await repository.dropSubscription(subscription.id);
        else if (outcome === 'later' && push.attempts + 1 < NOTIFICATIONS.pushTries)
          await repository.pushLater(push.id, new Date(Date.now() + NOTIFICATIONS.pushRetryBaseMs * 2 ** push.attempts));
        else {
          app.log.warn({ status, attempts: push.attempts + 1 }, 'a push notification was not delivered; giving up on it');
          await repository.pushDone(push.id);
        }
      }
      if (claimed.length < NOTIFICATIONS.pushBatch) return;
    }
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDue()
      .catch((error: unknown) =>
        app.log.warn({ err: loggableError(error) }, 'push notifications could not be sent now; trying again shortly'),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const timer = setInterval(kick, pollMs);
  timer.unref();
  return {
    nudge: kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
