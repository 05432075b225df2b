import { COMMUNITY_KINDS, NOTIFICATION_KIND_INFO, type ChannelChoice, type NotificationKind } from '../../common/notifications.contract.ts';
import { queueOptionalMails, type Mailer } from '../mail/mailer.ts';
import { forEachName, mailTemplates, type RenderedMail } from '../mail/templates.ts';
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
  mail?: (unsubscribeUrl: string, recipient: Recipient) => Promise<RenderedMail>;
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
  /**
   * Tells these members of one event, with a statement for each step for all of them (a reply tells
   * up to a dozen); answers how many were told anything new.
   */
  notifyAll(tx: Repositories, recipients: readonly Recipient[], event: NotificationEvent): Promise<number>;
  /** Wakes the mail and push workers, once the transaction has committed. */
  nudge(): void;
}

export function createNotifier(deps: { mailer: Mailer; nudgePush: () => void }): Notifier {
  const { mailer } = deps;
  const notifyAll: Notifier['notifyAll'] = async (tx, recipients, event) => {
    const told = [...new Map(recipients.map((recipient) => [recipient.id, recipient])).values()];
    if (told.length === 0) return 0;
    const ids = told.map((recipient) => recipient.id);
    const [preferences, digests] = await Promise.all([
      tx.notifications.preferencesFor(ids, event.kind),
      COMMUNITY_KINDS.includes(event.kind) ? tx.notifications.digestsOf(ids) : [],
    ]);
    const channelsFor = (id: string) =>
      channelsOf(
        preferences.filter((row) => row.memberId === id),
        event.kind,
      );
    const inDigest = new Set(digests.filter((row) => row.digest !== 'off').map((row) => row.memberId));
    const { gathers = false, mail, mailKind, ...notification } = event;
    const written = await tx.notifications.putAll(
      told.map((recipient) => ({ memberId: recipient.id, shown: channelsFor(recipient.id).site })),
      notification,
      { gathers },
    );
    // Told already (the same event twice); or one more like: counted, but not mailed or pushed again.
    const firsts = told.flatMap((recipient) => {
      const row = written.get(recipient.id);
      return row && row.count <= 1 ? [{ recipient, notificationId: row.id, channels: channelsFor(recipient.id) }] : [];
    });
    // The plain notification differs from one recipient to the next by their name only: made once.
    let plain: Promise<(name: string) => Promise<RenderedMail>> | undefined;
    await queueOptionalMails(
      tx,
      mailer,
      firsts.filter(({ recipient, channels }) => channels.email && !inDigest.has(recipient.id)).map(({ recipient }) => recipient),
      mailKind ?? `notification-${event.kind}`,
      async (recipient, unsubscribeUrl) => {
        if (mail) return mail(unsubscribeUrl, recipient);
        plain ??= forEachName((name) =>
          mailTemplates.notification({
            name,
            headline: event.title,
            body: event.body,
            url: mailer.link(event.url),
            settingsUrl: mailer.link('/notifications/settings'),
            unsubscribeUrl,
          }),
        );
        return (await plain)(recipient.name);
      },
    );
    await tx.notifications.queuePushes(
      firsts.filter(({ channels }) => channels.push).map(({ recipient, notificationId }) => ({ memberId: recipient.id, notificationId })),
      { title: event.title, body: event.body, url: event.url, tag: event.groupKey },
      event.requiredTier,
    );
    return written.size;
  };

  return {
    async notify(tx, recipient, event) {
      return (await notifyAll(tx, [recipient], event)) > 0;
    },

    notifyAll,

    nudge() {
      mailer.nudge();
      deps.nudgePush();
    },
  };
}
