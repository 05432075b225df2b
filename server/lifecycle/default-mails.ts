import { BRAND_NAME } from '../../common/brand.ts';
import { AUTOMATIONS, type AutomationKey } from '../../common/lifecycle-terms.ts';
import type { AutomationRow } from './lifecycle.repository.ts';

// Each lifecycle mail as it starts, until an owner changes it (a row of lifecycle_automations then
// holds the owner's version). Written in the broadcasts' markup; {name} is the member's name.

const DEFAULT_AUTOMATIONS: Record<AutomationKey, { subject: string; body: string; delayDays: number }> = {
  welcome: {
    subject: `Where to start at ${BRAND_NAME}`,
    body: [
      'Hi {name}, welcome aboard!',
      '',
      'The quickest win is your first course: pick one made for where you are in your career and watch the first lesson today. Most lessons take less than 15 minutes, on your phone.',
    ].join('\n'),
    delayDays: 0,
  },
  'welcome-day-2': {
    subject: 'Meet the agents who are doing it too',
    body: [
      'Hi {name},',
      '',
      "The community is where members share what works: scripts, listings, the week's wins and the questions nobody else answers. Introduce yourself and say what market you work in.",
    ].join('\n'),
    delayDays: 2,
  },
  'welcome-day-7': {
    subject: 'Coaching, live, every week',
    body: [
      'Hi {name},',
      '',
      'Every week our coaches go live: market updates, role-play and your questions answered. Put the next session in your calendar.',
    ].join('\n'),
    delayDays: 7,
  },
  'trial-ending': {
    subject: 'Your trial ends soon',
    body: [
      'Hi {name},',
      '',
      'Your free trial ends in a few days. Nothing to do to keep going: your membership continues with the card you gave. To change or cancel your plan before you are charged, open your billing page.',
    ].join('\n'),
    delayDays: 3,
  },
  'payment-failed': {
    subject: 'Please update your card',
    body: [
      'Hi {name},',
      '',
      'We still could not take the payment for your membership. Stripe will try again over the next days; update your card now and you keep everything without a gap.',
    ].join('\n'),
    delayDays: 1,
  },
  'plan-ended': {
    subject: 'Your membership has ended',
    body: [
      'Hi {name},',
      '',
      'We tried your card several times without success, so your paid membership has ended and your account is a free one again. Your progress and certificates are kept: choose a plan whenever you are ready to pick up where you left off.',
    ].join('\n'),
    delayDays: 0,
  },
  'win-back': {
    subject: 'We would love to have you back',
    body: [
      'Hi {name},',
      '',
      'Since you left we have added new courses, coaching sessions and resources for agents like you. Come back whenever you like: your progress is where you left it.',
    ].join('\n'),
    delayDays: 14,
  },
  inactive: {
    subject: 'Pick up where you left off',
    body: ['Hi {name},', '', 'It has been a little while. Ten minutes today keeps your momentum going.'].join('\n'),
    delayDays: 14,
  },
  'course-finished': {
    subject: 'Well done: you finished a course',
    body: [
      'Hi {name},',
      '',
      'Congratulations on finishing your course! Your certificate of completion is ready, and anyone can check it at its public page.',
    ].join('\n'),
    delayDays: 0,
  },
};

/** Every automation's settings: the owner's where they changed it, the default otherwise, in their order. */
export function automationSettings(stored: AutomationRow[]): AutomationRow[] {
  return AUTOMATIONS.map(
    (key) =>
      stored.find((row) => row.key === key) ?? {
        key,
        enabled: true,
        ...DEFAULT_AUTOMATIONS[key],
        offerCode: null,
        updatedAt: null,
        updatedBy: null,
      },
  );
}
