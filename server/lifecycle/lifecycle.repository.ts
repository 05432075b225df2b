import { and, asc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { lifecycleAutomations, lifecycleMails } from '../../db/schema.ts';
import { LIFECYCLE, type AutomationKey } from '../../common/lifecycle-terms.ts';
import { TIERS, type Tier } from '../../common/tiers.ts';

// Lifecycle mail's reads and writes. Each automation finds the members whose moment came (sign-up,
// a trial's end, a failing card, a cancellation, a quiet spell, a certificate) plus its delay, within
// the catch-up window, over an index of that moment; the claim (a unique index on automation, member
// and occasion) makes each mail go once, whichever process gets there first.

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** What a mail is about, beyond the member: the plan, the trial's end, the course, where they stopped. */
interface DueContext {
  tier?: string | null;
  trial_ends_at?: string | null;
  certificate_code?: string;
  course_title?: string;
  next_course?: { id: string; title: string } | null;
  stopped_at?: { course_id: string; course_title: string; lesson_id: string; lesson_title: string } | null;
}

export interface DueMail {
  member_id: string;
  name: string;
  email: string;
  time_zone: string | null;
  membership_tier: Tier;
  occasion: string;
  subscription_id: string | null;
  context: DueContext;
}

/** An automation's settings; `updatedAt` is null while it is as it started (server/lifecycle/default-mails.ts). */
export type AutomationRow = Omit<typeof lifecycleAutomations.$inferSelect, 'updatedAt'> & { updatedAt: Date | null };

export interface AutomationFigures {
  automation: AutomationKey;
  sent: number;
  opened: number;
  returned: number;
  upgraded: number;
  renewed: number;
}

const TIER_ARRAY = sql.raw(`array[${TIERS.map((tier) => `'${tier}'`).join(', ')}]`);

/** Members who take this mail: not unsubscribed, not off 'messages from the team' by email, not mailed it for this occasion yet. */
const mayMail = (key: AutomationKey, occasion: SQL) => sql`
  not m.email_opt_out
  and not exists (select 1 from notification_preferences p where p.member_id = m.id and p.kind = 'broadcast' and not p.email)
  and not exists (select 1 from lifecycle_mails l where l.automation = ${key} and l.member_id = m.id and l.occasion = ${occasion})`;

export function createLifecycleRepository(db: DatabaseOrTransaction) {
  /** The moments of each automation: `at` is now, `due` now less the delay, `since` the catch-up window's start. */
  function dueQuery(key: AutomationKey, at: Date, delayDays: number, limit: number): SQL {
    const now = sql`${at.toISOString()}::timestamptz`;
    const due = sql`(${now} - ${delayDays} * interval '1 day')`;
    const since = sql`(${now} - ${delayDays + LIFECYCLE.catchUpDays} * interval '1 day')`;
    const member = sql`m.id as member_id, m.name, m.email, m.time_zone, m.membership_tier`;
    switch (key) {
      case 'welcome':
      case 'welcome-day-2':
      case 'welcome-day-7':
        return sql`select ${member}, '' as occasion, null::text as subscription_id, '{}'::jsonb as context
          from members m
          where m.created_at <= ${due} and m.created_at > ${since} and ${mayMail(key, sql`''`)}
          order by m.created_at, m.id limit ${limit}`;
      case 'trial-ending':
        // A trial the member already cancelled ends without a charge: nothing to tell.
        return sql`select ${member}, s.id as occasion, s.id as subscription_id,
            jsonb_build_object('tier', s.tier, 'trial_ends_at', s.trial_ends_at) as context
          from subscriptions s join members m on m.id = s.member_id
          where s.status = 'trialing' and not s.cancel_at_period_end and s.trial_ends_at > ${now}
            and s.trial_ends_at <= ${now} + ${delayDays} * interval '1 day' and ${mayMail(key, sql`s.id`)}
          order by s.trial_ends_at, s.id limit ${limit}`;
      case 'payment-failed': {
        // Each spell of failing payments once: a card that fails again after being fixed is a new one.
        const spell = sql`s.id || '@' || floor(extract(epoch from s.past_due_since))::bigint::text`;
        return sql`select ${member}, ${spell} as occasion, s.id as subscription_id, jsonb_build_object('tier', s.tier) as context
          from subscriptions s join members m on m.id = s.member_id
          where s.status = 'past_due' and s.past_due_since <= ${due} and s.past_due_since > ${since} and ${mayMail(key, spell)}
          order by s.past_due_since, s.id limit ${limit}`;
      }
      case 'plan-ended':
        return sql`select ${member}, s.id as occasion, s.id as subscription_id, jsonb_build_object('tier', s.tier) as context
          from subscriptions s join members m on m.id = s.member_id
          where s.ended_unpaid_at <= ${due} and s.ended_unpaid_at > ${since} and ${mayMail(key, sql`s.id`)}
          order by s.ended_unpaid_at, s.id limit ${limit}`;
      case 'win-back':
        // A plan the member cancelled (not one that ended unpaid), and nothing paying since.
        return sql`select ${member}, s.id as occasion, s.id as subscription_id, jsonb_build_object('tier', s.tier) as context
          from subscriptions s join members m on m.id = s.member_id
          where s.status = 'canceled' and s.ended_at <= ${due} and s.ended_at > ${since}
            and s.ended_unpaid_at is null and s.tier is not null
            and not exists (select 1 from subscriptions o where o.member_id = s.member_id and o.status in ('active', 'trialing', 'past_due'))
            and ${mayMail(key, sql`s.id`)}
          order by s.ended_at, s.id limit ${limit}`;
      case 'inactive': {
        // Each quiet spell once (its occasion is the last day seen); where they stopped is their latest lesson.
        const today = sql`(${now} at time zone 'UTC')::date`;
        return sql`select ${member}, ls.seen_on::text as occasion, null::text as subscription_id,
            jsonb_build_object('stopped_at', (
              select jsonb_build_object('course_id', c.id, 'course_title', c.title, 'lesson_id', l.id, 'lesson_title', l.title)
              from lesson_positions p join lessons l on l.id = p.lesson_id join courses c on c.id = l.course_id
              where p.member_id = m.id order by p.updated_at desc limit 1)) as context
          from member_last_seen ls join members m on m.id = ls.member_id
          where ls.seen_on <= ${today} - ${delayDays}::int and ls.seen_on > ${today} - ${delayDays + LIFECYCLE.catchUpDays}::int
            and ${mayMail(key, sql`ls.seen_on::text`)}
          order by ls.seen_on, ls.member_id limit ${limit}`;
      }
      case 'course-finished':
        // What next: the first published course of their plan they have not started.
        return sql`select ${member}, c.course_id as occasion, null::text as subscription_id,
            jsonb_build_object('certificate_code', c.code, 'course_title', c.course_title, 'next_course', (
              select jsonb_build_object('id', co.id, 'title', co.title) from courses co
              where co.status = 'published'
                and array_position(${TIER_ARRAY}, co.tier) <= array_position(${TIER_ARRAY}, m.membership_tier)
                and not exists (select 1 from enrolments e where e.member_id = m.id and e.course_id = co.id)
              order by co.position, co.title limit 1)) as context
          from certificates c join members m on m.id = c.member_id
          where c.issued_at <= ${due} and c.issued_at > ${since} and ${mayMail(key, sql`c.course_id`)}
          order by c.issued_at, c.id limit ${limit}`;
    }
  }

  return {
    /** The automations owners changed (the others are as they started). */
    async automations(): Promise<AutomationRow[]> {
      return db.select().from(lifecycleAutomations).orderBy(asc(lifecycleAutomations.key));
    },

    async saveAutomation(
      key: AutomationKey,
      values: Pick<AutomationRow, 'enabled' | 'subject' | 'body' | 'delayDays' | 'offerCode'>,
      staffId: string,
    ): Promise<AutomationRow> {
      const changed = { ...values, updatedBy: staffId, updatedAt: new Date() };
      const [row] = await db
        .insert(lifecycleAutomations)
        .values({ key, ...changed })
        .onConflictDoUpdate({ target: lifecycleAutomations.key, set: changed })
        .returning();
      return row!;
    },

    /** The members whose moment for this automation came, oldest first. */
    async due(key: AutomationKey, now: Date, delayDays: number, limit: number): Promise<DueMail[]> {
      return rowsOf<DueMail>(await db.execute(dueQuery(key, now, delayDays, limit)));
    },

    /** Claims the member's mail for this occasion: its id for the one process that gets it, null otherwise. */
    async claim(mail: {
      automation: AutomationKey;
      memberId: string;
      occasion: string;
      subscriptionId: string | null;
    }): Promise<string | null> {
      const [claimed] = await db.insert(lifecycleMails).values(mail).onConflictDoNothing().returning({ id: lifecycleMails.id });
      return claimed?.id ?? null;
    },

    /** Forgets up to `limit` mails sent before then (the daily data retention); returns how many. */
    async forgetSentBefore(before: Date, limit: number): Promise<number> {
      const oldest = db.select({ id: lifecycleMails.id }).from(lifecycleMails).where(lt(lifecycleMails.sentAt, before)).limit(limit);
      const gone = await db.delete(lifecycleMails).where(inArray(lifecycleMails.id, oldest)).returning({ id: lifecycleMails.id });
      return gone.length;
    },

    /** The lifecycle mails sent to a member, oldest first, a page after `after` ('Download my data'). */
    async sentTo(memberId: string, limit: number, after?: { sentAt: string; id: string }) {
      return db
        .select({
          id: lifecycleMails.id,
          automation: lifecycleMails.automation,
          sentAt: lifecycleMails.sentAt,
          openedAt: lifecycleMails.openedAt,
          sentKey: sql<string>`${lifecycleMails.sentAt}::text`,
        })
        .from(lifecycleMails)
        .where(
          and(
            eq(lifecycleMails.memberId, memberId),
            after ? sql`(${lifecycleMails.sentAt}, ${lifecycleMails.id}) > (${after.sentAt}::timestamptz, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(lifecycleMails.sentAt), asc(lifecycleMails.id))
        .limit(limit);
    },

    /** A link of the mail was followed: the first time counts as its opening. False for a mail that does not exist. */
    async opened(mailId: string): Promise<boolean> {
      const found = await db
        .update(lifecycleMails)
        .set({ openedAt: sql`coalesce(${lifecycleMails.openedAt}, now())` })
        .where(eq(lifecycleMails.id, mailId))
        .returning({ id: lifecycleMails.id });
      return found.length > 0;
    },

    /**
     * Per automation, the mails sent since then, those opened, and what followed: the member came back
     * on a later day, their recurring revenue rose within the window, the subscription it was about is paying.
     */
    async figures(since: Date): Promise<AutomationFigures[]> {
      const within = sql`${LIFECYCLE.followedWithinDays} * interval '1 day'`;
      return rowsOf<AutomationFigures>(
        await db.execute(sql`
          select l.automation, count(*)::int as sent, count(l.opened_at)::int as opened,
            count(*) filter (where exists (
              select 1 from member_last_seen ls where ls.member_id = l.member_id and ls.seen_on > (l.sent_at at time zone 'UTC')::date))::int as returned,
            count(*) filter (where exists (
              select 1 from mrr_changes c where c.member_id = l.member_id and c.changed_at > l.sent_at
                and c.changed_at <= l.sent_at + ${within} and c.to_cents > c.from_cents))::int as upgraded,
            count(*) filter (where l.subscription_id is not null and exists (
              select 1 from subscriptions s where s.id = l.subscription_id and s.status = 'active' and s.updated_at > l.sent_at))::int as renewed
          from lifecycle_mails l
          where l.sent_at > ${since.toISOString()}::timestamptz
          group by l.automation`),
      );
    },
  };
}
