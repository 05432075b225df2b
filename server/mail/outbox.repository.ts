import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { outboxMessages, type OutboxLinkGrant } from '../../db/schema.ts';

export interface OutgoingMail {
  kind: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  unsubscribeUrl?: string;
  /** The link the worker mints as it sends (the text holds a stand-in for its token). */
  linkGrant?: OutboxLinkGrant;
  /** A calendar file (.ics) sent with the message. */
  calendar?: string;
}

export type OutboxRow = typeof outboxMessages.$inferSelect;

// Any token left in a link (a message queued before links were minted at sending) is taken out once sent.
const withoutTokens = (text: SQLWrapper) => sql`regexp_replace(${text}, 'token=[A-Za-z0-9_%.-]+', 'token=removed', 'g')`;

export function createOutboxRepository(db: DatabaseOrTransaction) {
  /** Adds messages in one statement; inside a transaction they are sent only if it commits. Answers their ids. */
  async function enqueueAll(mails: readonly OutgoingMail[]): Promise<string[]> {
    if (mails.length === 0) return [];
    const rows = await db
      .insert(outboxMessages)
      .values(
        mails.map((mail) => ({
          kind: mail.kind,
          toAddress: mail.to,
          replyTo: mail.replyTo ?? null,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          unsubscribeUrl: mail.unsubscribeUrl ?? null,
          linkGrant: mail.linkGrant ?? null,
          calendar: mail.calendar ?? null,
        })),
      )
      .returning({ id: outboxMessages.id });
    return rows.map((row) => row.id);
  }

  return {
    /**
     * Holds, until the transaction ends, the right to mail these addresses (any case): limits counted
     * from stored mail are counted once at a time per address, so two requests at once cannot both
     * find room for the last message. Taken in one order, so two holders never wait on each other.
     */
    async holdAddresses(addresses: string[]): Promise<void> {
      for (const address of [...new Set(addresses.map((each) => each.toLowerCase()))].sort())
        await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mail-to:${address}`}, 0))`);
    },

    enqueueAll,

    /** Adds a message; inside a transaction it is sent only if that transaction commits. */
    async enqueue(mail: OutgoingMail): Promise<string> {
      const [id] = await enqueueAll([mail]);
      return id!;
    },

    /**
     * Claims up to `limit` messages that are due and not claimed by another worker, until `until`.
     * `for update skip locked`: two processes claiming at once never get the same message.
     */
    async claimDue(limit: number, until: Date) {
      const now = new Date();
      const due = db
        .select({ id: outboxMessages.id })
        .from(outboxMessages)
        .where(
          and(
            eq(outboxMessages.status, 'pending'),
            lte(outboxMessages.nextAttemptAt, now),
            or(isNull(outboxMessages.lockedUntil), lt(outboxMessages.lockedUntil, now)),
          ),
        )
        .orderBy(asc(outboxMessages.createdAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db.update(outboxMessages).set({ lockedUntil: until }).where(inArray(outboxMessages.id, due)).returning();
    },

    /**
     * Marks a message sent, keeping for support what was sent without any working link: `composed`
     * is the text of a message written at sending (a password reset), with its stand-in token.
     */
    async markSent(id: string, composed?: { subject: string; html: string; text: string }): Promise<void> {
      await db
        .update(outboxMessages)
        .set({
          status: 'sent',
          sentAt: new Date(),
          lockedUntil: null,
          attempts: sql`${outboxMessages.attempts} + 1`,
          lastError: null,
          ...composed,
          html: withoutTokens(composed ? sql`${composed.html}` : outboxMessages.html),
          text: withoutTokens(composed ? sql`${composed.text}` : outboxMessages.text),
          unsubscribeUrl: withoutTokens(outboxMessages.unsubscribeUrl),
        })
        .where(eq(outboxMessages.id, id));
    },

    /** A message that is not to be sent after all (a reset for an address no account has): kept, with why. */
    async markDropped(id: string, reason: string): Promise<void> {
      await db.update(outboxMessages).set({ status: 'failed', lockedUntil: null, lastError: reason }).where(eq(outboxMessages.id, id));
    },

    /** Messages waiting to be sent, and how long the oldest has waited (metrics). */
    async depth(): Promise<{ pending: number; oldestAgeSeconds: number }> {
      const [row] = await db
        .select({
          pending: sql<number>`count(*)::int`,
          oldestAgeSeconds: sql<number>`coalesce(extract(epoch from now() - min(${outboxMessages.createdAt})), 0)::float8`,
        })
        .from(outboxMessages)
        .where(eq(outboxMessages.status, 'pending'));
      return { pending: row?.pending ?? 0, oldestAgeSeconds: row?.oldestAgeSeconds ?? 0 };
    },

    /** Every message to this address but `keepId` (a deleted member's mail goes with them, their goodbye aside). */
    async forgetRecipient(address: string, keepId?: string): Promise<void> {
      await db
        .delete(outboxMessages)
        .where(and(sql`lower(${outboxMessages.toAddress}) = lower(${address})`, keepId ? ne(outboxMessages.id, keepId) : undefined));
    },

    /** Removes up to `limit` messages sent (or given up on) before `before`; returns how many went. */
    async purgeSettled(before: Date, limit: number): Promise<number> {
      const gone = await db
        .delete(outboxMessages)
        .where(
          inArray(
            outboxMessages.id,
            db
              .select({ id: outboxMessages.id })
              .from(outboxMessages)
              .where(and(sql`${outboxMessages.status} <> 'pending'`, lt(outboxMessages.createdAt, before)))
              .limit(limit),
          ),
        )
        .returning({ id: outboxMessages.id });
      return gone.length;
    },

    /** Gives claimed messages back unsent (a worker stopping), so another process takes them at once. */
    async release(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.update(outboxMessages).set({ lockedUntil: null }).where(inArray(outboxMessages.id, ids));
    },

    /** Records a failed try: another one at `nextAttemptAt`, or none (`failed`) when the tries are used up. */
    async markFailedAttempt(id: string, error: string, nextAttemptAt: Date | null): Promise<void> {
      await db
        .update(outboxMessages)
        .set({
          status: nextAttemptAt ? 'pending' : 'failed',
          attempts: sql`${outboxMessages.attempts} + 1`,
          nextAttemptAt: nextAttemptAt ?? new Date(),
          lockedUntil: null,
          lastError: error.slice(0, 500),
        })
        .where(eq(outboxMessages.id, id));
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
