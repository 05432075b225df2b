import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';
import { LINK_VALID_MS } from '../../common/limits.ts';

/**
 * Queues a link that confirms the member's email address: in the welcome message at sign-up, or
 * alone when they ask for it again. Its token is minted when the message is sent, replacing any
 * older link.
 */
export async function queueEmailVerification(
  tx: Pick<Repositories, 'outbox'>,
  mailer: Mailer,
  member: { id: string; name: string; email: string },
  message: 'welcome' | 'verify-email',
): Promise<void> {
  const mail = message === 'welcome' ? mailTemplates.welcome : mailTemplates.verifyEmail;
  await mailer.queue(tx, message, member.email, await mail({ name: member.name, verifyUrl: mailer.tokenLink('/verify-email') }), {
    grant: { kind: 'account-token', purpose: 'email_verification', memberId: member.id, ttlMs: LINK_VALID_MS.emailVerification },
  });
}
