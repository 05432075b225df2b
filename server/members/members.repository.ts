import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { MEMBER_SEARCH_WINDOW } from '../../common/limits.ts';
import type { SubscriptionStatus } from '../../common/billing.contract.ts';
import type { PaidTier } from '../../common/pricing.ts';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { memberTierCounts, members, sessions, subscriptions, teamMembers, teams, unsubscribeLinks } from '../../db/schema.ts';
import { weeklyCountsSince } from '../stats/weekly-counts.repository.ts';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Any part of a name or an email, in any letter case: read through the trigram indexes on lower(name) and lower(email). */
function matching(search: string | undefined): SQL | undefined {
  const needle = search?.trim();
  if (!needle) return undefined;
  const pattern = `%${escapeLike(needle.toLowerCase())}%`;
  return or(sql`lower(${members.name}) like ${pattern}`, sql`lower(${members.email}) like ${pattern}`);
}

const listColumns = {
  id: members.id,
  name: members.name,
  email: members.email,
  tier: members.membershipTier,
  complimentaryTier: members.complimentaryTier,
  createdAt: members.createdAt,
};

/** Where the next page of a long list starts: the last row's join time (to the microsecond) and id. */
export interface MemberCursor {
  createdAt: string;
  id: string;
}

export function createMembersRepository(db: DatabaseOrTransaction) {
  return {
    /** A new free member; throws a unique violation when the email is taken in any letter case. */
    async create(values: { name: string; email: string; passwordHash: string }): Promise<{ id: string }> {
      const [row] = await db
        .insert(members)
        .values({ ...values, membershipTier: 'free' })
        .returning({ id: members.id });
      return row!;
    },

    async findCredentials(email: string): Promise<{ id: string; email: string; passwordHash: string } | null> {
      const [row] = await db
        .select({ id: members.id, email: members.email, passwordHash: members.passwordHash })
        .from(members)
        .where(eq(sql`lower(${members.email})`, email.toLowerCase()))
        .limit(1);
      return row ?? null;
    },

    async findById(id: string) {
      const [row] = await db.select(listColumns).from(members).where(eq(members.id, id));
      return row ?? null;
    },

    /** The whole account: for the account's own emails and settings. */
    async findAccount(by: { id: string } | { email: string }) {
      const where = 'id' in by ? eq(members.id, by.id) : eq(sql`lower(${members.email})`, by.email.toLowerCase());
      const [row] = await db.select().from(members).where(where).limit(1);
      return row ?? null;
    },

    async update(
      id: string,
      values: Partial<{
        name: string;
        email: string;
        passwordHash: string;
        emailVerifiedAt: Date | null;
        emailOptOut: boolean;
        timeZone: string;
      }>,
    ): Promise<void> {
      await db
        .update(members)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(members.id, id));
    },

    /** Opts out of mail the account does not need the member one of whose unsubscribe links this is; false for an unknown link. */
    async optOut(unsubscribeTokenHash: string): Promise<boolean> {
      const rows = await db
        .update(members)
        .set({ emailOptOut: true })
        .where(
          inArray(
            members.id,
            db.select({ id: unsubscribeLinks.memberId }).from(unsubscribeLinks).where(eq(unsubscribeLinks.tokenHash, unsubscribeTokenHash)),
          ),
        )
        .returning({ id: members.id });
      return rows.length > 0;
    },

    /** A new unsubscribe link of the member's, by its token's hash (minted as a message is sent). */
    async addUnsubscribeLink(memberId: string, tokenHash: string): Promise<void> {
      await db.insert(unsubscribeLinks).values({ memberId, tokenHash });
    },

    /**
     * Members whose paid plan ended more than `days` ago and who have none since (nor a tier staff
     * gave them): the privacy policy removes their data then. A batch at a time.
     */
    /** Members whose last plan ended `days` ago, with no complimentary tier and nothing paid through a team (`paying`: the statuses that give access). */
    async lapsedSince(days: number, limit: number, paying: readonly SubscriptionStatus[]) {
      const payingStatus = sql.join(
        paying.map((status) => sql`${status}`),
        sql`, `,
      );
      return db
        .select({ id: members.id, email: members.email, name: members.name })
        .from(members)
        .where(
          and(
            isNull(members.complimentaryTier),
            sql`exists (select 1 from ${subscriptions} s where s.member_id = ${members.id})`,
            sql`not exists (select 1 from ${subscriptions} s where s.member_id = ${members.id}
              and (s.ended_at is null or s.ended_at > now() - make_interval(days => ${days})))`,
            // Paid through a team (a seat, or the team they manage) is paid: such a member is kept.
            sql`not exists (select 1 from ${teams} team where team.broker_id = ${members.id}
              and team.status in (${payingStatus}))`,
            sql`not exists (select 1 from ${teamMembers} seat join ${teams} team on team.id = seat.team_id
              where seat.member_id = ${members.id}
              and team.status in (${payingStatus}))`,
          ),
        )
        .limit(limit);
    },

    /** Deletes the member; their sessions, tokens, enrolments, progress and certificates go with them. */
    async delete(id: string): Promise<void> {
      await db.delete(members).where(eq(members.id, id));
    },

    /** The member's sessions (their sign-ins), newest first, for the staff's member page. */
    async signIns(memberId: string, limit: number) {
      return db
        .select({
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
          userAgent: sessions.userAgent,
          ipAddress: sessions.ipAddress,
        })
        .from(sessions)
        .where(eq(sessions.memberId, memberId))
        .orderBy(desc(sessions.createdAt))
        .limit(limit);
    },

    /** Members per tier, from the counts kept with the rows (migration 0029). */
    async countByTier() {
      return db.select({ tier: memberTierCounts.tier, value: memberTierCounts.members }).from(memberTierCounts);
    },

    /** Members who joined since this date, per week (weeks start on Monday), as YYYY-MM-DD, from the counts kept with the rows. */
    async signupsByWeek(since: Date) {
      return weeklyCountsSince(db, 'signups', since);
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(members);
      return row?.value ?? 0;
    },

    /**
     * Newest first; `before` pages through the whole list by join time and id. The cursor keeps the
     * database's own microseconds (a JavaScript Date would round them to milliseconds and skip rows).
     */
    /** One member in the shape of the staff's list. */
    async listed(id: string) {
      const [row] = await db
        .select({ ...listColumns, cursor: sql<string>`${members.createdAt}::text` })
        .from(members)
        .where(eq(members.id, id));
      return row ?? null;
    },

    /**
     * Members newest first, matching the search when one is given, a page after `before`. Text that
     * matches few members (fewer than MEMBER_SEARCH_WINDOW) is found through the trigram indexes first and
     * only those are ordered; text that matches many is found along the newest-first index, where
     * matches are dense and a page comes after a few rows, whichever the planner would guess.
     */
    async search(search: string | undefined, limit: number, before?: MemberCursor) {
      const page = before ? sql`(${members.createdAt}, ${members.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)` : undefined;
      const found = matching(search);
      const columns = { ...listColumns, cursor: sql<string>`${members.createdAt}::text` };
      if (found) {
        const probe = (await db.execute(
          sql`select count(*)::int as value from (select 1 from ${members} where ${found} limit ${MEMBER_SEARCH_WINDOW}) as probe`,
        )) as unknown as { rows: { value: number }[] };
        const matches =
          (probe.rows[0]?.value ?? 0) >= MEMBER_SEARCH_WINDOW
            ? null
            : await (async () => {
                const matched = (await db.execute(
                  // The page is cut from the matches, not in their read: only the trigram indexes find them.
                  sql`with matched as materialized (select ${members.id} as id, ${members.createdAt} as created_at from ${members} where ${found})
                    select id from matched
                    ${before ? sql`where (created_at, id) < (${before.createdAt}::timestamptz, ${before.id}::uuid)` : sql``}
                    order by created_at desc, id desc limit ${limit}`,
                )) as unknown as { rows: { id: string }[] };
                const ids = matched.rows.map((row) => row.id);
                if (ids.length === 0) return [];
                const rows = await db.select(columns).from(members).where(inArray(members.id, ids));
                const byId = new Map(rows.map((row) => [row.id, row]));
                return ids.flatMap((id) => byId.get(id) ?? []);
              })();
        if (matches) return matches;
      }
      return db.select(columns).from(members).where(and(found, page)).orderBy(desc(members.createdAt), desc(members.id)).limit(limit);
    },

    /** Members whose name is one of these (lower case), for @mentions: a few, found on the trigram index. */
    async namedAny(names: string[], limit: number) {
      if (names.length === 0) return [];
      return db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          emailOptOut: members.emailOptOut,
          membershipTier: members.membershipTier,
        })
        .from(members)
        .where(inArray(sql`lower(${members.name})`, names))
        .orderBy(asc(members.createdAt))
        .limit(limit);
    },

    /** The tier every access check reads; set only from server/billing/membership-tier.ts. */
    async setTier(id: string, tier: Tier): Promise<void> {
      await db.update(members).set({ membershipTier: tier, updatedAt: new Date() }).where(eq(members.id, id));
    },

    async setCommunitySuspended(id: string, at: Date | null): Promise<void> {
      await db.update(members).set({ communitySuspendedAt: at, updatedAt: new Date() }).where(eq(members.id, id));
    },

    async setComplimentaryTier(id: string, tier: PaidTier | null): Promise<void> {
      await db.update(members).set({ complimentaryTier: tier, updatedAt: new Date() }).where(eq(members.id, id));
    },

    /** Holds the member's row until the transaction ends, so two changes to their tier never interleave. */
    async lock(id: string): Promise<{ tier: Tier; complimentaryTier: PaidTier | null } | null> {
      const [row] = await db
        .select({ tier: members.membershipTier, complimentaryTier: members.complimentaryTier })
        .from(members)
        .where(eq(members.id, id))
        .for('update');
      return row ?? null;
    },

    /** Links the member to their Stripe customer, once: the customer already linked wins. */
    async linkStripeCustomer(id: string, customerId: string): Promise<string | null> {
      await db
        .update(members)
        .set({ stripeCustomerId: customerId })
        .where(and(eq(members.id, id), isNull(members.stripeCustomerId)));
      const [row] = await db.select({ customerId: members.stripeCustomerId }).from(members).where(eq(members.id, id));
      return row?.customerId ?? null;
    },

    async findByStripeCustomer(customerId: string): Promise<{ id: string } | null> {
      const [row] = await db.select({ id: members.id }).from(members).where(eq(members.stripeCustomerId, customerId));
      return row ?? null;
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;
