import type { OutboxLinkGrant } from '../../db/schema.ts';
import type { Repositories } from '../repositories.ts';
import type { RenderedMail } from './templates.ts';

/** What a queued mail's link grants (a token minted as it is sent): rules compose them (reset-mail.ts), so they read the type here. */
export type { OutboxLinkGrant };

/**
 * Stands in a queued message for the token of its link. The mail worker mints the token as it sends
 * the message and puts it in the copy that leaves; the outbox only ever holds this stand-in, so
 * whoever reads the database, a backup or a replica finds no working link (docs/decisions/014).
 */
export const LINK_TOKEN = 'minted-when-sent';

/** What services need to send mail: absolute links, and a way to queue a message with their change. */
export interface Mailer {
  /** An absolute link on the site (PUBLIC_URL), e.g. link('/certificates/RP-...'). */
  link(path: string, query?: Record<string, string>): string;
  /** A link whose token the worker mints when it sends the message (`grant` says what it opens). */
  tokenLink(path: string): string;
  /** Queues a message in the transaction's outbox (it is sent only if the transaction commits); returns its id. */
  queue(
    tx: Pick<Repositories, 'outbox'>,
    kind: string,
    to: string,
    mail: RenderedMail,
    options?: { replyTo?: string; unsubscribeUrl?: string; grant?: OutboxLinkGrant; calendar?: string },
  ): Promise<string>;
  /** Wakes the mail worker, once the transaction has committed. */
  nudge(): void;
}

/** Absolute links on the site, from PUBLIC_URL (read at each link: it is set late when PORT=0). */
function siteLinks(site: { readonly publicUrl: string }) {
  return (path: string, query?: Record<string, string>) => {
    const url = new URL(path, site.publicUrl);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    return url.toString();
  };
}

export function createMailer(options: { readonly publicUrl: string; nudge: () => void }): Mailer {
  const link = siteLinks(options);
  return {
    link,
    tokenLink: (path) => link(path, { token: LINK_TOKEN }),
    async queue(tx, kind, to, mail, extra = {}) {
      return tx.outbox.enqueue({
        kind,
        to,
        ...mail,
        replyTo: extra.replyTo,
        unsubscribeUrl: extra.unsubscribeUrl,
        linkGrant: extra.grant,
        calendar: extra.calendar,
      });
    },
    nudge: options.nudge,
  };
}

/** An account a message it does not need may go to (queueOptionalMails). */
interface OptionalMailAccount {
  id: string;
  email: string;
  emailOptOut: boolean;
}

/**
 * Queues a message the account does not need (a congratulation, a reply notice), unless the member
 * unsubscribed: it carries a one-click unsubscribe link, in its footer and in its headers, minted
 * when the message is sent. Returns the queued message's id, or null when the member unsubscribed.
 */
export async function queueOptionalMail(
  tx: Pick<Repositories, 'outbox'>,
  mailer: Mailer,
  account: OptionalMailAccount,
  kind: string,
  compose: (unsubscribeUrl: string) => Promise<RenderedMail>,
): Promise<string | null> {
  const [id] = await queueOptionalMails(tx, mailer, [account], kind, (_account, unsubscribeUrl) => compose(unsubscribeUrl));
  return id ?? null;
}

/** queueOptionalMail for several accounts at once, in one statement (those who unsubscribed are left out). */
export async function queueOptionalMails<Account extends OptionalMailAccount>(
  tx: Pick<Repositories, 'outbox'>,
  mailer: Mailer,
  accounts: readonly Account[],
  kind: string,
  compose: (account: Account, unsubscribeUrl: string) => Promise<RenderedMail>,
): Promise<string[]> {
  const mails = [];
  for (const account of accounts) {
    if (account.emailOptOut) continue;
    mails.push({
      kind,
      to: account.email,
      ...(await compose(account, mailer.tokenLink('/unsubscribe'))),
      unsubscribeUrl: mailer.tokenLink('/api/email/unsubscribe'),
      linkGrant: { kind: 'unsubscribe' as const, memberId: account.id },
    });
  }
  return tx.outbox.enqueueAll(mails);
}
