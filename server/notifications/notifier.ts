import { COMMUNITY_KINDS, NOTIFICATION_KIND_INFO, type ChannelChoice, type NotificationKind } from '../../common/notifications.contract.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates, type RenderedMail } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';
import type { NewNotification, PreferenceRow } from './notifications.repository.ts';

// How an event reaches a member: written once as their notification (the bell), mailed and pushed
// as they chose for its kind, in the transaction of the event, so it goes only if the event happened.
// A member with a community digest gets replies, mentions and likes in it instead of one mail each.

/** Who is told: what the mail and the tier check need. */
interface Recipient {
  id: string;
  name: string;
  email: string;
  emailOptOut: boolean;
}

interface NotificationEvent extends NewNotification {
  /** Likes of one discussion are one notification that counts them. */
  gathers?: boolean;
  /** The mail of this kind of event, when it has its own (a reply's quotes it); else the plain one. */
  mail?: (unsubscribeUrl: string) => Promise<RenderedMail>;
  /** The mail's kind in the outbox (defaults to `notification-<kind>`). */
  mailKind?: string;
}

/** The channels a member chose for a kind, or the kind's defaults. */
export function channelsOf(
  rows: readonly Pick<PreferenceRow, 'kind' | 'site' | 'email' | 'push'>[],
  kind: NotificationKind,
): ChannelChoice {
  const row = rows.find((each) => each.kind === kind);
  return row ? { site: row.site, email: row.email, push: row.push } : NOTIFICATION_KIND_INFO[kind].defaults;
}

export interface Notifier {
  /** Tells one member of an event; answers whether anything new was written (false: told already). */
  notify(tx: Repositories, recipient: Recipient, event: NotificationEvent): Promise<boolean>;
  /** Wakes the mail and push workers, once the transaction has committed. */
  nudge(): void;
}

export function createNotifier(deps: { mailer: Mailer; nudgePush: () => void }): Notifier {
  const { mailer } = deps;
  return {
    async notify(tx, recipient, event) {
      const [preferences, digest] = await Promise.all([
        tx.notifications.preferencesFor([recipient.id], event.kind),
        COMMUNITY_KINDS.includes(event.kind) ? tx.notifications.digestOf(recipient.id) : null,
      ]);
      const channels = channelsOf(preferences, event.kind);
      const { gathers = false, mail, mailKind, ...notification } = event;
      const written = await tx.notifications.put(recipient.id, notification, { gathers, shown: channels.site });
      // Told already (the same event twice); or one more like: counted, but not mailed or pushed again.
      if (!written || written.count > 1) return written !== null;
      const inDigest = digest !== null && digest.digest !== 'off';
      if (channels.email && !inDigest) {
        await queueOptionalMail(tx, mailer, recipient, mailKind ?? `notification-${event.kind}`, (unsubscribeUrl) =>
          mail
            ? mail(unsubscribeUrl)
            : mailTemplates.notification({
                name: recipient.name,
                headline: event.title,
                body: event.body,
                url: mailer.link(event.url),
                settingsUrl: mailer.link('/notifications/settings'),
                unsubscribeUrl,
              }),
        );
      }
      if (channels.push) {
        await tx.notifications.queuePush(
          recipient.id,
          { title: event.title, body: event.body, url: event.url, tag: event.groupKey },
          event.requiredTier,
          written.id,
        );
      }
      return true;
    },

    nudge() {
      mailer.nudge();
      deps.nudgePush();
    },
  };
}
