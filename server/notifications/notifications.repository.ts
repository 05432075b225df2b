import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { NotificationKind } from '../../common/notifications.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import {
  members,
  notificationDigests,
  notificationFanouts,
  notificationPreferences,
  notifications,
  pushMessages,
  pushSubscriptions,
  sessions,
} from '../../db/schema.ts';

// The notifications centre's tables: each member's notifications (a page at a time, latest first,
// on their index), their channel choices, their push devices, the pushes waiting to go, and the
// news for a whole tier that the minute job hands out a batch of members at a time.

export type NotificationRow = typeof notifications.$inferSelect;
export type PreferenceRow = typeof notificationPreferences.$inferSelect;
export type FanoutRow = typeof notificationFanouts.$inferSelect;

/** What a notification says and where it leads, as the event that makes it writes it. */
export interface NewNotification {
  kind: NotificationKind;
  groupKey: string;
  title: string;
  body: string;
  url: string;
  requiredTier: Tier;
}

interface UpdatedKey {
  updatedAt: string;
  id: string;
}

const readable = (tiers: readonly Tier[]) => and(eq(notifications.shown, true), inArray(notifications.requiredTier, [...tiers]));

export function createNotificationsRepository(db: DatabaseOrTransaction) {
  /**
   * Writes each member's notification of an event once: a second write of the same event (its group
   * key) changes nothing and is left out of the answer; for `gathers` (likes of one discussion) it
   * counts one more and shows it again. Answers each written notification's id and count, by
   * member; `shown` says whether it is shown on the site (else it is written read).
   */
  async function putAll(
    recipients: readonly { memberId: string; shown: boolean }[],
    notification: NewNotification,
    options: { gathers: boolean },
  ): Promise<Map<string, { id: string; count: number }>> {
    if (recipients.length === 0) return new Map();
    const insert = db
      .insert(notifications)
      .values(recipients.map(({ memberId, shown }) => ({ memberId, ...notification, shown, readAt: shown ? null : sql`now()` })));
    const written = await (
      options.gathers
        ? insert.onConflictDoUpdate({
            target: [notifications.memberId, notifications.groupKey],
            set: {
              title: sql`excluded.title`,
              body: sql`excluded.body`,
              updatedAt: sql`now()`,
              readAt: sql`excluded.read_at`,
              shown: sql`excluded.shown`,
              actorCount: sql`case when ${notifications.readAt} is null then ${notifications.actorCount} + 1 else 1 end`,
            },
          })
        : insert.onConflictDoNothing()
    ).returning({ memberId: notifications.memberId, id: notifications.id, count: notifications.actorCount });
    return new Map(written.map(({ memberId, ...row }) => [memberId, row]));
  }

  /** The digest choices of these members (those without a row have none). */
  async function digestsOf(memberIds: string[]) {
    if (memberIds.length === 0) return [];
    return db.select().from(notificationDigests).where(inArray(notificationDigests.memberId, memberIds));
  }

  /**
   * Queues each notification's push to each of its member's devices still signed in (the device's
   * session neither ended nor revoked), in one statement for all of them.
   */
  async function queuePushes(
    pushes: readonly { memberId: string; notificationId: string | null }[],
    payload: { title: string; body: string; url: string; tag: string },
    requiredTier: Tier,
  ) {
    if (pushes.length === 0) return;
    const told = sql.join(
      pushes.map((push) => sql`(${push.memberId}::uuid, ${push.notificationId}::uuid)`),
      sql`, `,
    );
    await db.execute(sql`insert into ${pushMessages} (subscription_id, notification_id, payload, required_tier)
      select ${pushSubscriptions.id}, told.notification_id, ${JSON.stringify(payload)}::jsonb, ${requiredTier}
      from (values ${told}) as told(member_id, notification_id)
      join ${pushSubscriptions} on ${pushSubscriptions.memberId} = told.member_id
      where ${pushSubscriptions.sessionId} is null or exists (
        select 1 from ${sessions} where ${sessions.id} = ${pushSubscriptions.sessionId}
          and ${sessions.revokedAt} is null and ${sessions.expiresAt} > now())`);
  }

  return {
    /** A member's notifications they may read now, latest first, after `before` (a page). */
    async page(memberId: string, tiers: readonly Tier[], limit: number, before?: UpdatedKey) {
      return db
        .select({ row: notifications, updatedKey: sql<string>`${notifications.updatedAt}::text` })
        .from(notifications)
        .where(
          and(
            eq(notifications.memberId, memberId),
            readable(tiers),
            before
              ? sql`(${notifications.updatedAt}, ${notifications.id}) < (${before.updatedAt}::timestamptz, ${before.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(limit);
    },

    /** How many unread the member may read, counted up to `cap` (the bell shows "99+" past it). */
    async unread(memberId: string, tiers: readonly Tier[], cap: number): Promise<number> {
      const counted = (await db.execute(
        sql`select count(*)::int as value from (select 1 from ${notifications}
          where ${notifications.memberId} = ${memberId} and ${notifications.readAt} is null and ${readable(tiers)}
          limit ${cap}) as unread`,
      )) as unknown as { rows: { value: number }[] };
      return counted.rows[0]?.value ?? 0;
    },

    /** Marks these of the member's notifications read (every one when no ids), on every device at once. */
    async markRead(memberId: string, ids?: string[]): Promise<void> {
      await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(and(eq(notifications.memberId, memberId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids) : undefined));
    },

    async find(id: string): Promise<NotificationRow | null> {
      const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
      return row ?? null;
    },

    putAll,

    /** One member's notification of an event (putAll): its id and count, or null when it was written before. */
    async put(
      memberId: string,
      notification: NewNotification,
      options: { gathers: boolean; shown: boolean },
    ): Promise<{ id: string; count: number } | null> {
      const written = await putAll([{ memberId, shown: options.shown }], notification, options);
      return written.get(memberId) ?? null;
    },

    /** The member's channel choices (kinds without a row keep their defaults). */
    async preferencesOf(memberId: string): Promise<PreferenceRow[]> {
      return db.select().from(notificationPreferences).where(eq(notificationPreferences.memberId, memberId));
    },

    /** The choices of one kind for these members (those without a row keep the kind's defaults). */
    async preferencesFor(memberIds: string[], kind: NotificationKind): Promise<PreferenceRow[]> {
      if (memberIds.length === 0) return [];
      return db
        .select()
        .from(notificationPreferences)
        .where(and(inArray(notificationPreferences.memberId, memberIds), eq(notificationPreferences.kind, kind)));
    },

    async savePreferences(memberId: string, rows: Omit<PreferenceRow, 'memberId'>[]): Promise<void> {
      for (const row of rows) {
        await db
          .insert(notificationPreferences)
          .values({ memberId, ...row })
          .onConflictDoUpdate({
            target: [notificationPreferences.memberId, notificationPreferences.kind],
            set: { site: row.site, email: row.email, push: row.push },
          });
      }
    },

    async digestOf(memberId: string) {
      const [row] = await digestsOf([memberId]);
      return row ?? null;
    },

    digestsOf,

    async setDigest(memberId: string, digest: 'off' | 'daily' | 'weekly'): Promise<void> {
      await db
        .insert(notificationDigests)
        .values({ memberId, digest })
        .onConflictDoUpdate({ target: notificationDigests.memberId, set: { digest } });
    },

    /** The time zones of members with a digest (a handful of rows: one per zone). */
    async digestZones(): Promise<(string | null)[]> {
      const rows = await db
        .selectDistinct({ zone: members.timeZone })
        .from(notificationDigests)
        .innerJoin(members, eq(members.id, notificationDigests.memberId))
        .where(sql`${notificationDigests.digest} <> 'off'`);
      return rows.map((row) => row.zone);
    },

    /** Members of these zones (null: not set) whose `digest` of `period` is due and not sent yet, a batch. */
    async digestsDue(digest: 'daily' | 'weekly', zones: (string | null)[], period: string, limit: number) {
      const named = zones.filter((zone): zone is string => zone !== null);
      return db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          emailOptOut: members.emailOptOut,
          membershipTier: members.membershipTier,
        })
        .from(notificationDigests)
        .innerJoin(members, eq(members.id, notificationDigests.memberId))
        .where(
          and(
            eq(notificationDigests.digest, digest),
            or(isNull(notificationDigests.lastPeriod), sql`${notificationDigests.lastPeriod} <> ${period}`),
            or(
              named.length > 0 ? inArray(members.timeZone, named) : undefined,
              zones.includes(null) ? isNull(members.timeZone) : undefined,
            ),
          ),
        )
        .orderBy(asc(notificationDigests.memberId))
        .limit(limit);
    },

    /** Claims the member's digest of `period`: true for the one process that gets it. */
    async claimDigest(memberId: string, period: string): Promise<boolean> {
      const claimed = await db
        .update(notificationDigests)
        .set({ lastPeriod: period })
        .where(
          and(
            eq(notificationDigests.memberId, memberId),
            or(isNull(notificationDigests.lastPeriod), sql`${notificationDigests.lastPeriod} <> ${period}`),
          ),
        )
        .returning({ memberId: notificationDigests.memberId });
      return claimed.length > 0;
    },

    /** The member's community notifications since `since` they may read, latest first (a digest's lines). */
    async communitySince(memberId: string, kinds: readonly NotificationKind[], tiers: readonly Tier[], since: Date, limit: number) {
      return db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.memberId, memberId),
            inArray(notifications.kind, [...kinds]),
            readable(tiers),
            sql`${notifications.updatedAt} >= ${since.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(limit);
    },

    // ---- Push ------------------------------------------------------------------------------------

    /** The member whose device this endpoint is, or null for an endpoint not known. */
    async subscriptionOwner(endpoint: string): Promise<string | null> {
      const [row] = await db
        .select({ memberId: pushSubscriptions.memberId })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, endpoint));
      return row?.memberId ?? null;
    },

    /**
     * Adds a device, or renews an endpoint already this member's (a browser that subscribed again, with
     * new keys). An endpoint of another member's is left as it is, even when two requests race: false then.
     */
    async addSubscription(values: typeof pushSubscriptions.$inferInsert): Promise<boolean> {
      const saved = await db
        .insert(pushSubscriptions)
        .values(values)
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { p256dh: values.p256dh, auth: values.auth, userAgent: values.userAgent, sessionId: values.sessionId },
          setWhere: eq(pushSubscriptions.memberId, values.memberId),
        })
        .returning({ id: pushSubscriptions.id });
      return saved.length > 0;
    },

    async removeSubscription(memberId: string, endpoint: string): Promise<void> {
      await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.memberId, memberId), eq(pushSubscriptions.endpoint, endpoint)));
    },

    /** A device the push service says is gone (404, 410): its waiting pushes go with it. */
    async dropSubscription(id: string): Promise<void> {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
    },

    async countSubscriptions(memberId: string): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.memberId, memberId));
      return row?.value ?? 0;
    },

    queuePushes,

    /** One member's push (queuePushes). */
    async queuePush(
      memberId: string,
      payload: { title: string; body: string; url: string; tag: string },
      requiredTier: Tier,
      notificationId: string | null,
    ) {
      await queuePushes([{ memberId, notificationId }], payload, requiredTier);
    },

    /** Claims pushes due now until `until` (SKIP LOCKED: each goes to one worker), with their device and member. */
    async claimDuePushes(limit: number, until: Date) {
      const due = db
        .select({ id: pushMessages.id })
        .from(pushMessages)
        .where(
          and(lte(pushMessages.nextAttemptAt, sql`now()`), or(isNull(pushMessages.lockedUntil), lte(pushMessages.lockedUntil, sql`now()`))),
        )
        .orderBy(asc(pushMessages.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db.update(pushMessages).set({ lockedUntil: until }).where(inArray(pushMessages.id, due)).returning();
      if (claimed.length === 0) return [];
      const devices = await db
        .select({ subscription: pushSubscriptions, tier: members.membershipTier })
        .from(pushSubscriptions)
        .innerJoin(members, eq(members.id, pushSubscriptions.memberId))
        .where(
          inArray(
            pushSubscriptions.id,
            claimed.map((push) => push.subscriptionId),
          ),
        );
      const byId = new Map(devices.map((device) => [device.subscription.id, device]));
      return claimed.flatMap((push) => {
        const device = byId.get(push.subscriptionId);
        return device ? [{ push, subscription: device.subscription, memberTier: device.tier }] : [];
      });
    },

    async pushDone(id: string): Promise<void> {
      await db.delete(pushMessages).where(eq(pushMessages.id, id));
    },

    async pushLater(id: string, nextAttemptAt: Date): Promise<void> {
      await db
        .update(pushMessages)
        .set({ attempts: sql`${pushMessages.attempts} + 1`, nextAttemptAt, lockedUntil: null })
        .where(eq(pushMessages.id, id));
    },

    /** Pushes waiting to go (metrics). */
    async pushDepth(): Promise<number> {
      const [row] = await db.select({ value: sql<number>`count(*)::int` }).from(pushMessages);
      return row?.value ?? 0;
    },

    // ---- News for a whole tier ----------------------------------------------------------------------

    /** News to hand out; a second one for the same thing (its group key) is ignored. */
    async addFanout(values: typeof notificationFanouts.$inferInsert): Promise<void> {
      await db.insert(notificationFanouts).values(values).onConflictDoNothing();
    },

    /** Takes one piece of news still being handed out (SKIP LOCKED: one process at a time works on it). */
    async claimFanout(): Promise<FanoutRow | null> {
      const [row] = await db
        .select()
        .from(notificationFanouts)
        .where(isNull(notificationFanouts.doneAt))
        .orderBy(asc(notificationFanouts.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      return row ?? null;
    },

    /** The next members the news is for (their tier reaches it), by id, after the last reached. */
    async fanoutMembers(fanout: FanoutRow, tiers: readonly Tier[], limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: members.id })
        .from(members)
        .where(
          and(
            inArray(members.membershipTier, [...tiers]),
            fanout.reachedMemberId ? sql`${members.id} > ${fanout.reachedMemberId}` : undefined,
          ),
        )
        .orderBy(asc(members.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /**
     * Writes the news as each of these members' notification (once: a member who has it is skipped),
     * shown or not as each chose for its kind (`defaults` for those who did not), and queues a push to
     * the devices of those who take pushes of it. Answers the members newly told who take it by email.
     */
    async handOut(fanout: FanoutRow, memberIds: string[], defaults: { site: boolean; email: boolean; push: boolean }) {
      if (memberIds.length === 0) return [];
      const chosen = (channel: 'site' | 'email' | 'push') => sql.raw(`coalesce(p.${channel}, ${defaults[channel] ? 'true' : 'false'})`);
      const written = (await db.execute(sql`
        with told as (
          insert into ${notifications} (member_id, kind, group_key, title, body, url, required_tier, shown, read_at)
          select m.id, ${fanout.kind}, ${fanout.groupKey}, ${fanout.title}, ${fanout.body}, ${fanout.url}, ${fanout.requiredTier},
                 ${chosen('site')}, case when ${chosen('site')} then null else now() end
          from ${members} m
          left join ${notificationPreferences} p on p.member_id = m.id and p.kind = ${fanout.kind}
          where m.id in (${sql.join(
            memberIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          on conflict (member_id, group_key) do nothing
          returning id, member_id
        ),
        pushed as (
          insert into ${pushMessages} (subscription_id, notification_id, payload, required_tier)
          select s.id, told.id, ${JSON.stringify({ title: fanout.title, body: fanout.body, url: fanout.url, tag: fanout.groupKey })}::jsonb, ${fanout.requiredTier}
          from told
          join ${pushSubscriptions} s on s.member_id = told.member_id
          left join ${notificationPreferences} p on p.member_id = told.member_id and p.kind = ${fanout.kind}
          where ${chosen('push')}
        )
        select m.id, m.name, m.email, m.email_opt_out as "emailOptOut"
        from told
        join ${members} m on m.id = told.member_id
        left join ${notificationPreferences} p on p.member_id = told.member_id and p.kind = ${fanout.kind}
        where ${chosen('email')} and not m.email_opt_out`)) as unknown as {
        rows: { id: string; name: string; email: string; emailOptOut: boolean }[];
      };
      return written.rows;
    },

    async advanceFanout(id: string, reachedMemberId: string | null, done: boolean): Promise<void> {
      await db
        .update(notificationFanouts)
        .set({ reachedMemberId, ...(done && { doneAt: sql`now()` }) })
        .where(eq(notificationFanouts.id, id));
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
