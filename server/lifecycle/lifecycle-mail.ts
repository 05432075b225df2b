import { blocksFor, parseBroadcast, type Block } from '../../common/broadcast-markup.ts';
import { LIFECYCLE, type AutomationKey } from '../../common/lifecycle-terms.ts';
import { TIER_LABEL, type Tier } from '../../common/tiers.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates, type RenderedMail } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { automationSettings } from './default-mails.ts';
import type { AutomationRow, DueMail } from './lifecycle.repository.ts';

// Lifecycle mail, a step of the minute job in every process (server/jobs/schedule.ts): for each
// automation switched on, the members whose moment plus its delay has come are mailed a batch at a
// time. Each mail is claimed (automation, member, occasion: a unique index) in the transaction that
// queues it, so two processes never send it twice and a crash sends it on the next run. Members who
// unsubscribed, or turned off 'messages from the team' by email, are never picked.

/** Where each mail leads (through the site's counted link), and what the moment adds to the owner's text. */
function momentOf(key: AutomationKey, row: AutomationRow, due: DueMail): { notes: string[]; actions: { path: string; label: string }[] } {
  const { context } = due;
  const plan = context.tier ? `${TIER_LABEL[context.tier as Tier]} ` : '';
  switch (key) {
    case 'welcome':
      return { notes: [], actions: [{ path: '/courses', label: 'Start a course' }] };
    case 'welcome-day-2':
      return { notes: [], actions: [{ path: '/community', label: 'Join the conversation' }] };
    case 'welcome-day-7':
      return { notes: [], actions: [{ path: '/coaching', label: 'See the coaching calendar' }] };
    case 'trial-ending': {
      const ends = context.trial_ends_at ? new Date(context.trial_ends_at) : null;
      const on = ends
        ? new Intl.DateTimeFormat('en-US', {
            month: 'long',
            day: 'numeric',
            year: 'numeric',
            timeZone: due.time_zone ?? DEFAULT_TIME_ZONE,
          }).format(ends)
        : null;
      return {
        notes: on ? [`Your ${plan}trial ends on ${on}.`] : [],
        actions: [{ path: '/account/billing', label: 'Review my plan' }],
      };
    }
    case 'payment-failed':
      return {
        notes: [
          `Your ${plan}membership stays open while Stripe tries again. Your billing page opens Stripe's secure portal to update your card.`,
        ],
        actions: [{ path: '/account/billing', label: 'Update my card' }],
      };
    case 'plan-ended':
      return { notes: [], actions: [{ path: '/pricing', label: 'Choose a plan' }] };
    case 'win-back':
      return row.offerCode
        ? {
            notes: [`Use the code ${row.offerCode} at checkout.`],
            actions: [{ path: `/pricing?offer=${encodeURIComponent(row.offerCode)}`, label: 'See the plans with my offer' }],
          }
        : { notes: [], actions: [{ path: '/pricing', label: 'See the plans' }] };
    case 'inactive': {
      const stopped = context.stopped_at;
      return stopped
        ? {
            notes: [`You stopped at "${stopped.lesson_title}" in ${stopped.course_title}.`],
            actions: [
              {
                path: `/courses/${encodeURIComponent(stopped.course_id)}?lesson=${encodeURIComponent(stopped.lesson_id)}`,
                label: 'Continue where I stopped',
              },
            ],
          }
        : { notes: [], actions: [{ path: '/courses', label: 'Browse the courses' }] };
    }
    case 'course-finished': {
      const next = context.next_course;
      return {
        notes: [`You finished ${context.course_title ?? 'your course'}.`, ...(next ? [`What to take next: ${next.title}.`] : [])],
        actions: [
          { path: `/certificates/${encodeURIComponent(context.certificate_code ?? '')}`, label: 'View my certificate' },
          ...(next ? [{ path: `/courses/${encodeURIComponent(next.id)}`, label: `Start ${next.title}` }] : []),
        ],
      };
    }
  }
}

/** The owner's text with the member's name in it (after parsing: a name never becomes markup). */
function withName(blocks: Block[], name: string): Block[] {
  const named = (text: string) => text.replaceAll('{name}', name);
  return blocks.map((block) =>
    block.kind === 'heading'
      ? { ...block, text: named(block.text) }
      : block.kind === 'paragraph'
        ? { ...block, parts: block.parts.map((part) => (typeof part === 'string' ? named(part) : { ...part, text: named(part.text) })) }
        : block,
  );
}

function lifecycleMail(mailer: Mailer, row: AutomationRow, due: DueMail, mailId: string, unsubscribeUrl: string): Promise<RenderedMail> {
  // A section the owner wrote for a tier ([gold] ... [/gold]) reaches the members of that tier and above only.
  const blocks = withName(blocksFor(parseBroadcast(row.body), due.membership_tier), due.name);
  return mailTemplates.lifecycle({
    subject: row.subject.replaceAll('{name}', due.name),
    blocks,
    absolute: (path) => mailer.link(path),
    // The site's own pages go through the counted link; other addresses are left as written.
    tracked: (address) => (address.startsWith('/') ? mailer.link(`/api/lifecycle/mails/${mailId}/go`, { to: address }) : address),
    ...momentOf(row.key, row, due),
    unsubscribeUrl,
  });
}

/** Sends the lifecycle mails due now; returns how many this process queued. */
export async function sendLifecycleMail(data: DataAccess, mailer: Mailer, now = new Date()): Promise<number> {
  const automations = automationSettings(await data.lifecycle.automations()).filter((row) => row.enabled);
  let sent = 0;
  for (const row of automations) {
    for (let batch = 0; batch < LIFECYCLE.batchesPerRun; batch++) {
      const due = await data.lifecycle.due(row.key, now, row.delayDays, LIFECYCLE.batch);
      for (const each of due) {
        const queued = await data.transaction(async (tx) => {
          const mailId = await tx.lifecycle.claim({
            automation: row.key,
            memberId: each.member_id,
            occasion: each.occasion,
            subscriptionId: each.subscription_id,
          });
          if (!mailId) return false;
          const account = { id: each.member_id, email: each.email, emailOptOut: false };
          return (
            (await queueOptionalMail(tx, mailer, account, `lifecycle-${row.key}`, (unsubscribeUrl) =>
              lifecycleMail(mailer, row, each, mailId, unsubscribeUrl),
            )) !== null
          );
        });
        if (queued) sent++;
      }
      if (due.length < LIFECYCLE.batch) break;
    }
  }
  if (sent > 0) mailer.nudge();
  return sent;
}
