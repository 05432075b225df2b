import type { OutboxLinkGrant } from '../mail/mailer.ts';
import { mailTemplates, type RenderedMail } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';
import { LINK_VALID_MS } from '../../common/limits.ts';

/**
 * The password reset asked for with this address, written as it is sent: to the member (or staff
 * account) that has the address now, with a link whose token is minted then; null when no account
 * has it. Deciding here, not when asked, makes a request look the same for any address.
 */
export async function composePasswordReset(
  data: Pick<Repositories, 'members' | 'staff'>,
  tokenLink: (path: string) => string,
  account: 'member' | 'staff',
  email: string,
): Promise<{ to: string; mail: RenderedMail; grant: OutboxLinkGrant } | null> {
  if (account === 'member') {
    const member = await data.members.findAccount({ email });
    if (!member) return null;
    return {
      to: member.email,
      mail: await mailTemplates.passwordReset({ name: member.name, resetUrl: tokenLink('/reset-password') }),
      grant: { kind: 'account-token', purpose: 'password_reset', memberId: member.id, ttlMs: LINK_VALID_MS.passwordReset },
    };
  }
  const staff = await data.staff.findByEmail(email);
  if (!staff) return null;
  return {
    to: staff.email,
    mail: await mailTemplates.passwordReset({ name: staff.email, resetUrl: tokenLink('/admin/reset-password') }),
    grant: { kind: 'account-token', purpose: 'password_reset', staffId: staff.id, ttlMs: LINK_VALID_MS.passwordReset },
  };
}
