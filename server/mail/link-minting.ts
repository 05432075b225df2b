import { composePasswordReset } from '../accounts/reset-mail.ts';
import type { OutboxLinkGrant } from '../../db/schema.ts';
import type { DataAccess } from '../repositories.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';
import { LINK_TOKEN } from './mailer.ts';
import type { OutboxRow } from './outbox.repository.ts';
import type { RenderedMail } from './templates.ts';

/** A message ready to leave: with its working link, and what the outbox keeps of it (no link). */
export type PreparedMail =
  | {
      send: {
        id: string;
        to: string;
        subject: string;
        html: string;
        text: string;
        replyTo: string | null;
        unsubscribeUrl: string | null;
        calendar: string | null;
      };
      /** The text of a message written at sending, as kept for support (with the stand-in token). */
      composed?: RenderedMail;
    }
  | { drop: string };

/**
 * Readies each message as the mail worker sends it: a message with a link gets its token now, stored
 * as a hash only (a single-use account link, or an unsubscribe link), and the token goes into the
 * copy that leaves, never into the outbox. A password reset is written now, for whoever has the
 * address (docs/decisions/014).
 */
export function createLinkMinting(deps: { data: DataAccess; tokenLink: (path: string) => string }) {
  const { data } = deps;

  /** Mints the link's token; null when what it opens is gone (the account was deleted meanwhile). */
  async function mint(grant: Exclude<OutboxLinkGrant, { kind: 'password-reset' }>): Promise<string | null> {
    const token = generateSessionToken();
    const tokenHash = hashSessionToken(token);
    if (grant.kind === 'unsubscribe') {
      if (!(await data.members.findById(grant.memberId))) return null;
      await data.members.addUnsubscribeLink(grant.memberId, tokenHash);
      return token;
    }
    if (grant.kind === 'team-invitation') {
      // A team's invitation: its link works from now, once, until it expires or is accepted.
      const live = await data.teams.armInvitation(grant.invitationId, tokenHash, new Date(Date.now() + grant.ttlMs));
      return live ? token : null;
    }
    const owner = grant.memberId ? { memberId: grant.memberId } : grant.staffId ? { staffId: grant.staffId } : null;
    const exists = grant.memberId
      ? await data.members.findById(grant.memberId)
      : grant.staffId
        ? await data.staff.findById(grant.staffId)
        : null;
    if (!owner || !exists) return null;
    await data.transaction(async (tx) => {
      // One working link per purpose: the newest replaces those sent before it.
      await tx.accountTokens.revokeUnused(grant.purpose, owner);
      await tx.accountTokens.create({
        purpose: grant.purpose,
        owner,
        tokenHash,
        newEmail: grant.newEmail,
        expiresAt: new Date(Date.now() + grant.ttlMs),
      });
    });
    return token;
  }

  return async function prepare(message: OutboxRow): Promise<PreparedMail> {
    let grant = message.linkGrant;
    let composed: RenderedMail | undefined;
    let to = message.toAddress;
    if (grant?.kind === 'password-reset') {
      const reset = await composePasswordReset(data, deps.tokenLink, grant.account, message.toAddress);
      if (!reset) return { drop: 'No account has this address: nothing was sent.' };
      ({ to, mail: composed, grant } = reset);
    }
    const text = composed ?? message;
    const token = grant ? await mint(grant as Exclude<OutboxLinkGrant, { kind: 'password-reset' }>) : undefined;
    if (token === null) return { drop: 'The account this message was for no longer exists.' };
    const withToken = (value: string) => (token ? value.replaceAll(LINK_TOKEN, token) : value);
    return {
      send: {
        id: message.id,
        to,
        subject: text.subject,
        html: withToken(text.html),
        text: withToken(text.text),
        replyTo: message.replyTo,
        unsubscribeUrl: message.unsubscribeUrl && withToken(message.unsubscribeUrl),
        calendar: message.calendar,
      },
      composed,
    };
  };
}
