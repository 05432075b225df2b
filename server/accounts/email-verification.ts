import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';

const VERIFY_LINK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Queues a link that confirms the member's email address: in the welcome message at sign-up, or
 * alone when they ask for it again. A newer link replaces older ones.
 */
export async function queueEmailVerification(
  tx: Pick<Repositories, 'accountTokens' | 'outbox'>,
  mailer: Mailer,
  member: { id: string; name: string; email: string },
  message: 'welcome' | 'verify-email',
): Promise<void> {
  const token = generateSessionToken();
  await tx.accountTokens.revokeUnused('email_verification', { memberId: member.id });
  await tx.accountTokens.create({
    purpose: 'email_verification',
    owner: { memberId: member.id },
    tokenHash: hashSessionToken(token),
    expiresAt: new Date(Date.now() + VERIFY_LINK_MS),
  });
  const verifyUrl = mailer.link('/verify-email', { token });
  const mail = message === 'welcome' ? mailTemplates.welcome : mailTemplates.verifyEmail;
  await mailer.queue(tx, message, member.email, await mail({ name: member.name, verifyUrl }));
}
