import type { Repositories } from '../repositories.ts';
import type { RenderedMail } from './templates.ts';

/** What services need to send mail: absolute links, and a way to queue a message with their change. */
export interface Mailer {
  /** An absolute link on the site (PUBLIC_URL), e.g. link('/reset-password', { token }). */
  link(path: string, query?: Record<string, string>): string;
  /** Queues a message in the transaction's outbox: it is sent only if the transaction commits. */
  queue(
    tx: Pick<Repositories, 'outbox'>,
    kind: string,
    to: string,
    mail: RenderedMail,
    options?: { replyTo?: string; unsubscribeUrl?: string },
  ): Promise<void>;
  /** Wakes the mail worker, once the transaction has committed. */
  nudge(): void;
}

export function createMailer(options: { publicUrl: string; nudge: () => void }): Mailer {
  return {
    link(path, query) {
      const url = new URL(path, options.publicUrl);
      for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
      return url.toString();
    },
    async queue(tx, kind, to, mail, extra = {}) {
      await tx.outbox.enqueue({ kind, to, ...mail, replyTo: extra.replyTo, unsubscribeUrl: extra.unsubscribeUrl });
    },
    nudge: options.nudge,
  };
}

/**
 * Queues a message the account does not need (a congratulation, a reply notice), unless the member
 * unsubscribed: it carries the one-click unsubscribe link, in its footer and in its headers.
 */
export async function queueOptionalMail(
  tx: Pick<Repositories, 'outbox'>,
  mailer: Mailer,
  account: { email: string; emailOptOut: boolean; unsubscribeToken: string },
  kind: string,
  compose: (unsubscribeUrl: string) => Promise<RenderedMail>,
): Promise<boolean> {
  if (account.emailOptOut) return false;
  const mail = await compose(mailer.link('/unsubscribe', { token: account.unsubscribeToken }));
  await mailer.queue(tx, kind, account.email, mail, {
    unsubscribeUrl: mailer.link('/api/email/unsubscribe', { token: account.unsubscribeToken }),
  });
  return true;
}
