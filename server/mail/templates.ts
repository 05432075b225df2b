import type { GoalView } from '../../common/goals.contract.ts';
// Each component from its own package: '@react-email/components' also loads a code highlighter
// (Prism) that no message uses, a quarter of the server's start.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { plainTextSelectors, render } from '@react-email/render';
import { compile } from 'html-to-text';
import { createElement as h, type ReactNode } from 'react';
import { plainText, type Block } from '../../common/broadcast-markup.ts';
import { BRAND_NAME } from '../../common/brand.ts';
import { formatDate, formatMoney } from '../../common/format.ts';
import { COACHING } from '../../common/limits.ts';

// The messages the business sends, as React email components (written with createElement: the
// server runs TypeScript without a JSX step). Each renders to HTML and a plain-text part.

const BRAND_RED = '#7f1d1d';
const GOLD = '#f5c542';
const INK = '#1f2937';

interface BroadcastMail {
  subject: string;
  blocks: Block[];
  /** The site's address for a path (links and images from the file library). */
  absolute: (path: string) => string;
  /** A link through the site's click counter. */
  tracked: (address: string) => string;
  readOnSite: string;
  unsubscribeUrl: string;
}

interface LifecycleMail extends Omit<BroadcastMail, 'readOnSite'> {
  /** Sentences the moment adds (the trial's end, where the member stopped). */
  notes: string[];
  /** Its buttons, to pages of the site. */
  actions: { path: string; label: string }[];
}

/** What every coaching message names: the member, the session, when (in the member's zone) and its page. */
interface CoachingMail {
  name: string;
  title: string;
  when: string;
  pageUrl: string;
}

/** A change to a Gold member's 1-on-1: booked, moved (from `before`) or cancelled. */
interface OneOnOneMail {
  name: string;
  change: 'booked' | 'moved' | 'cancelled';
  /** The other person: the coach for the member's copy, the member for the coach's. */
  with: string;
  when: string;
  before?: string;
  topic: string;
  pageUrl: string;
}

const ONE_ON_ONE_SUBJECT = { booked: 'Booked', moved: 'New time', cancelled: 'Cancelled' } as const;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const paragraph = (children: ReactNode) =>
  h(Text, { style: { fontSize: '16px', lineHeight: '24px', color: INK, margin: '0 0 16px' } }, children);

const action = (href: string, label: string) =>
  h(
    Section,
    { style: { margin: '24px 0' } },
    h(
      Button,
      {
        href,
        style: {
          backgroundColor: BRAND_RED,
          color: '#ffffff',
          borderRadius: '8px',
          padding: '12px 20px',
          fontWeight: 600,
          fontSize: '16px',
          textDecoration: 'none',
        },
      },
      label,
    ),
  );

/** The frame every message shares: the brand bar, the content, and the footer (with unsubscribe when it applies). */
function Layout({ preview, children, unsubscribeUrl }: { preview: string; children?: ReactNode; unsubscribeUrl?: string }) {
  return h(
    Html,
    { lang: 'en' },
    h(Head, null),
    h(Preview, null, preview),
    h(
      Body,
      { style: { backgroundColor: '#f9fafb', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' } },
      h(
        Container,
        { style: { backgroundColor: '#ffffff', borderRadius: '12px', maxWidth: '560px', overflow: 'hidden', border: '1px solid #e5e7eb' } },
        h(
          Section,
          { style: { backgroundColor: BRAND_RED, padding: '20px 28px' } },
          h(Text, { style: { color: GOLD, fontSize: '22px', fontWeight: 800, margin: 0 } }, BRAND_NAME),
        ),
        h(Section, { style: { padding: '28px' } }, children),
        h(Hr, { style: { borderColor: '#e5e7eb', margin: 0 } }),
        h(
          Section,
          { style: { padding: '16px 28px' } },
          h(
            Text,
            { style: { fontSize: '12px', lineHeight: '18px', color: '#6b7280', margin: 0 } },
            `${BRAND_NAME}: Transform Your Real Estate Career From Your Pocket.`,
            unsubscribeUrl
              ? [' ', h(Link, { key: 'unsubscribe', href: unsubscribeUrl, style: { color: '#6b7280' } }, 'Unsubscribe')]
              : null,
          ),
        ),
      ),
    ),
  );
}

/**
 * The plain-text part, as `render(element, { plainText: true })` makes it, from the HTML already
 * made: that option renders the message a second time and sets its converter up anew for each one
 * (a reply's mails to a discussion's repliers took most of the reply's time).
 */
const plainTextOf = compile({ wordwrap: false, selectors: plainTextSelectors });

async function compose(subject: string, preview: string, content: ReactNode[], unsubscribeUrl?: string): Promise<RenderedMail> {
  const html = await render(h(Layout, { preview, unsubscribeUrl }, ...content));
  return { subject, html, text: plainTextOf(html) };
}

const greeting = (name: string) => paragraph(`Hi ${name},`);
const title = (text: string) => h(Heading, { as: 'h1', style: { fontSize: '22px', color: INK, margin: '0 0 16px' } }, text);

/** A broadcast's blocks as mail content: headings, paragraphs with links (made absolute), images. */
function broadcastContent(blocks: Block[], absolute: (path: string) => string, tracked: (address: string) => string): ReactNode[] {
  const href = (address: string) => (address.startsWith('/') ? absolute(address) : address);
  return blocks.map((block, index) => {
    if (block.kind === 'heading')
      return h(Heading, { key: index, as: 'h2', style: { fontSize: '19px', color: INK, margin: '8px 0 12px' } }, block.text);
    if (block.kind === 'image')
      return h(Img, {
        key: index,
        src: href(block.src),
        alt: block.alt,
        width: '100%',
        style: { margin: '0 0 16px', borderRadius: '8px' },
      });
    return h(
      Text,
      { key: index, style: { fontSize: '16px', lineHeight: '24px', color: INK, margin: '0 0 16px' } },
      block.parts.map((part, at) =>
        typeof part === 'string' ? part : h(Link, { key: at, href: tracked(part.href), style: { color: BRAND_RED } }, part.text),
      ),
    );
  });
}

/** A stand-in for the recipient's name, made of letters only, so neither the markup nor the plain text changes it. */
const NAME_SLOT = 'RecipientNameSlotQz';

/** Text as React writes it into markup (its escapeTextForBrowser), for a name put in after the render. */
const escapedAsReactDoes = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[character]!);

/**
 * One message for many recipients that differs only by their name (the notification of a reply to
 * a dozen earlier repliers): rendered once with a stand-in for the name, then the name put in for
 * each. Should the stand-in not come out whole the same number of times in both parts (a template
 * that changes the name's letters), each recipient's copy is rendered on its own.
 */
export async function forEachName(make: (name: string) => Promise<RenderedMail>): Promise<(name: string) => Promise<RenderedMail>> {
  const once = await make(NAME_SLOT);
  const count = (text: string) => text.split(NAME_SLOT).length - 1;
  const slots = count(once.html);
  if (slots === 0 || slots !== count(once.text) || count(once.subject) > 0) return make;
  return async (name) => ({
    subject: once.subject,
    html: once.html.replaceAll(NAME_SLOT, escapedAsReactDoes(name)),
    text: once.text.replaceAll(NAME_SLOT, name),
  });
}

export const mailTemplates = {
  /** A broadcast, as a member of one tier gets it (the sections above their tier are not in `blocks`). */
  broadcast: ({ subject, blocks, absolute, tracked, readOnSite, unsubscribeUrl }: BroadcastMail) =>
    compose(
      subject,
      plainText(blocks).slice(0, 140),
      [...broadcastContent(blocks, absolute, tracked), action(readOnSite, 'Read it on the site')],
      unsubscribeUrl,
    ),

  /** A lifecycle mail: the owner's text, then what the moment adds (a date, where they stopped) and its buttons. */
  lifecycle: ({ subject, blocks, absolute, tracked, notes, actions, unsubscribeUrl }: LifecycleMail) =>
    compose(
      subject,
      plainText(blocks).slice(0, 140),
      [
        ...broadcastContent(blocks, absolute, tracked),
        ...notes.map((note) => paragraph(note)),
        ...actions.map((each) => action(tracked(each.path), each.label)),
      ],
      unsubscribeUrl,
    ),

  welcome: ({ name, verifyUrl }: { name: string; verifyUrl: string }) =>
    compose(`Welcome to ${BRAND_NAME}`, 'Confirm your email to finish setting up your account.', [
      title(`Welcome to ${BRAND_NAME}!`),
      greeting(name),
      paragraph('Your free account is ready: start a course, listen to the podcast and explore the resources library.'),
      paragraph('Please confirm this is your email address:'),
      action(verifyUrl, 'Confirm my email'),
      paragraph('The link works for 7 days. If you did not create this account, you can ignore this message.'),
    ]),

  verifyEmail: ({ name, verifyUrl }: { name: string; verifyUrl: string }) =>
    compose('Confirm your email address', 'One click to confirm your email.', [
      title('Confirm your email address'),
      greeting(name),
      action(verifyUrl, 'Confirm my email'),
      paragraph('The link works for 7 days.'),
    ]),

  passwordReset: ({ name, resetUrl }: { name: string; resetUrl: string }) =>
    compose('Reset your password', 'A link to choose a new password.', [
      title('Reset your password'),
      greeting(name),
      paragraph('Someone (we hope you) asked to reset the password of your account. Choose a new one here:'),
      action(resetUrl, 'Choose a new password'),
      paragraph('The link works once, for 1 hour. If you did not ask for it, ignore this message: your password stays as it is.'),
    ]),

  staffInvitation: ({ role, inviter, setPasswordUrl }: { role: string; inviter: string; setPasswordUrl: string }) =>
    compose(`You are invited to the ${BRAND_NAME} admin`, `${inviter} invited you as ${role}.`, [
      title(`Join the ${BRAND_NAME} admin`),
      paragraph(`${inviter} invited you to the ${BRAND_NAME} administration as ${role}.`),
      paragraph('Choose your password to sign in:'),
      action(setPasswordUrl, 'Choose your password'),
      paragraph('The link works once, for 7 days. If you did not expect this, ignore this message.'),
    ]),

  teamInvitation: ({ team, broker, tier, joinUrl }: { team: string; broker: string; tier: string; joinUrl: string }) =>
    compose(`${broker} invites you to ${team} on ${BRAND_NAME}`, `A ${tier} membership, from your brokerage.`, [
      title(`Join ${team} on ${BRAND_NAME}`),
      paragraph(`${broker} holds a seat for you in ${team}: a ${tier} membership, paid by your brokerage, for as long as you have it.`),
      paragraph(`Already a member? Your account and progress stay yours. New here? Create your free account first, with this address.`),
      action(joinUrl, 'Join the team'),
      paragraph('The link works once, for 14 days. If you did not expect this, ignore this message.'),
    ]),

  teamOffer: (offer: { name: string; plan: string; pricePerSeat: string; minSeats: number; until: Date; offerUrl: string }) =>
    compose(`Your team offer from ${BRAND_NAME}`, `${offer.plan} for your agents at ${offer.pricePerSeat}.`, [
      title('Your team offer'),
      greeting(offer.name),
      paragraph(
        `Thank you for writing to us about your team. Here is our offer: ${offer.plan} memberships for your agents at ${offer.pricePerSeat}, for ${offer.minSeats} seats or more.`,
      ),
      paragraph(
        `Open it, sign in or create your free account with this address, choose the number of seats and pay online. Then invite your agents from your team page.`,
      ),
      action(offer.offerUrl, 'See your team offer'),
      paragraph(`The offer stands until ${formatDate(offer.until, 'long')}, for one team. Reply to this message with any question.`),
    ]),

  passwordChanged: ({ name }: { name: string }) =>
    compose('Your password was changed', 'Your password was changed.', [
      title('Your password was changed'),
      greeting(name),
      paragraph('The password of your account was just changed, and every other device was signed out.'),
      paragraph('If this was not you, reset your password right away and contact us.'),
    ]),

  emailChangeConfirm: ({ name, newEmail, confirmUrl }: { name: string; newEmail: string; confirmUrl: string }) =>
    compose('Confirm your new email address', 'Confirm the new address of your account.', [
      title('Confirm your new email address'),
      greeting(name),
      paragraph(`You asked to use ${newEmail} for your ${BRAND_NAME} account. Confirm it here:`),
      action(confirmUrl, 'Use this email address'),
      paragraph('The link works once, for 24 hours. Until then your account keeps its old address.'),
    ]),

  emailChangeNotice: ({ name, newEmail }: { name: string; newEmail: string }) =>
    compose('Your email address is changing', 'A change of email address was requested.', [
      title('Your email address is changing'),
      greeting(name),
      paragraph(`Someone asked to move your ${BRAND_NAME} account to ${newEmail}. It changes once that address confirms it.`),
      paragraph('If this was not you, change your password right away and contact us.'),
    ]),

  emailChanged: ({ name, newEmail }: { name: string; newEmail: string }) =>
    compose('Your email address was changed', 'Your account now uses a new email address.', [
      title('Your email address was changed'),
      greeting(name),
      paragraph(`Your ${BRAND_NAME} account now uses ${newEmail}. Sign in with that address from now on.`),
      paragraph('If this was not you, contact us right away.'),
    ]),

  communityReply: ({
    name,
    postTitle,
    replierName,
    excerpt,
    postUrl,
    unsubscribeUrl,
  }: {
    name: string;
    postTitle: string;
    replierName: string;
    excerpt: string;
    postUrl: string;
    unsubscribeUrl: string;
  }) =>
    compose(
      `${replierName} replied to "${postTitle}"`,
      `${replierName} replied to your discussion.`,
      [
        title('A new reply to your discussion'),
        greeting(name),
        paragraph(`${replierName} replied to "${postTitle}":`),
        h(
          Text,
          {
            style: {
              fontSize: '15px',
              lineHeight: '22px',
              color: INK,
              whiteSpace: 'pre-line',
              borderLeft: `3px solid ${GOLD}`,
              paddingLeft: '12px',
            },
          },
          excerpt,
        ),
        action(postUrl, 'Read and reply'),
      ],
      unsubscribeUrl,
    ),

  /** A notification by email (a mention, a new course, a new session...): what happened and a link to it. */
  notification: ({
    name,
    headline,
    body,
    url,
    settingsUrl,
    unsubscribeUrl,
  }: {
    name: string;
    headline: string;
    body: string;
    url: string;
    settingsUrl: string;
    unsubscribeUrl: string;
  }) =>
    compose(
      headline,
      body || headline,
      [
        title(headline),
        greeting(name),
        ...(body ? [paragraph(body)] : []),
        action(url, 'Open it'),
        paragraph(`You get this email because of your notification settings. Change them here: ${settingsUrl}`),
      ],
      unsubscribeUrl,
    ),

  /** The community digest: the day's (or week's) replies, mentions and likes, in one email. */
  communityDigest: ({
    name,
    period,
    lines,
    pageUrl,
    settingsUrl,
    unsubscribeUrl,
  }: {
    name: string;
    period: 'daily' | 'weekly';
    lines: { headline: string; body: string; url: string }[];
    pageUrl: string;
    settingsUrl: string;
    unsubscribeUrl: string;
  }) =>
    compose(
      period === 'daily' ? 'Your community today' : 'Your community this week',
      `${lines.length} ${lines.length === 1 ? 'thing' : 'things'} happened in your discussions.`,
      [
        title(period === 'daily' ? 'What happened in your discussions today' : 'What happened in your discussions this week'),
        greeting(name),
        ...lines.flatMap((line) => [
          h(Link, { href: line.url, style: { color: INK, fontWeight: 700, fontSize: '15px' } }, line.headline),
          ...(line.body ? [paragraph(line.body)] : [paragraph('')]),
        ]),
        action(pageUrl, 'See all your notifications'),
        paragraph(`Rather have each one as it happens, or none? Change it here: ${settingsUrl}`),
      ],
      unsubscribeUrl,
    ),

  contactReceived: ({ name, subject }: { name: string; subject: string }) =>
    compose(`We received your message: ${subject}`, 'Thank you for your message.', [
      title('Thank you for your message'),
      greeting(name),
      paragraph(`We received your message "${subject}" and will get back to you soon, usually within one business day.`),
    ]),

  contactForStaff: ({ name, email, subject, message }: { name: string; email: string; subject: string; message: string }) =>
    compose(`Contact form: ${subject}`, `${name} wrote through the contact form.`, [
      title('New message from the contact form'),
      paragraph(`From: ${name} <${email}>`),
      paragraph(`Subject: ${subject}`),
      h(Text, { style: { fontSize: '15px', lineHeight: '22px', color: INK, whiteSpace: 'pre-line' } }, message),
      paragraph('Reply to this email to answer them.'),
    ]),

  paymentReceipt: ({
    name,
    plan,
    amountCents,
    currency,
    invoiceNumber,
    invoiceUrl,
    renewsOn,
    billingUrl,
  }: {
    name: string;
    plan: string;
    amountCents: number;
    currency: string;
    invoiceNumber: string | null;
    invoiceUrl: string | null;
    renewsOn: Date | null;
    billingUrl: string;
  }) =>
    compose(`Your receipt: ${formatMoney(amountCents, currency)} for ${BRAND_NAME} ${plan}`, 'Thank you for your payment.', [
      title('Thank you for your payment'),
      greeting(name),
      paragraph(
        `We received ${formatMoney(amountCents, currency)} for your ${BRAND_NAME} ${plan} membership${invoiceNumber ? ` (invoice ${invoiceNumber})` : ''}.`,
      ),
      renewsOn ? paragraph(`Your membership renews on ${formatDate(renewsOn, 'long')}. Cancel anytime from your billing page.`) : null,
      action(invoiceUrl ?? billingUrl, invoiceUrl ? 'View my invoice' : 'View my billing'),
    ]),

  paymentFailed: ({
    name,
    plan,
    amountCents,
    currency,
    billingUrl,
  }: {
    name: string;
    plan: string;
    amountCents: number;
    currency: string;
    billingUrl: string;
  }) =>
    compose('Your payment did not go through', 'Please update your card to keep your membership.', [
      title('Your payment did not go through'),
      greeting(name),
      paragraph(`We could not charge ${formatMoney(amountCents, currency)} for your ${BRAND_NAME} ${plan} membership.`),
      paragraph('Your membership stays active while we try again over the next few days. Please update your card:'),
      action(billingUrl, 'Update my payment method'),
    ]),

  cancellationScheduled: ({ name, plan, endsOn, billingUrl }: { name: string; plan: string; endsOn: Date; billingUrl: string }) =>
    compose(`Your ${BRAND_NAME} membership ends on ${formatDate(endsOn, 'long')}`, 'Your cancellation is confirmed.', [
      title('Your cancellation is confirmed'),
      greeting(name),
      paragraph(
        `Your ${plan} membership stays active until ${formatDate(endsOn, 'long')}, the end of the period you paid for. You will not be charged again, and there is no cancellation fee.`,
      ),
      paragraph('Changed your mind? You can keep your membership with one click until then:'),
      action(billingUrl, 'Keep my membership'),
    ]),

  coachingReminder: ({
    name,
    title: sessionTitle,
    host,
    when,
    lead,
    pageUrl,
    unsubscribeUrl,
  }: CoachingMail & { host: string; lead: 'day' | 'hour'; unsubscribeUrl?: string }) =>
    compose(
      lead === 'day' ? `Tomorrow: ${sessionTitle}` : `In an hour: ${sessionTitle}`,
      `Live coaching with ${host}, ${when}.`,
      [
        title(lead === 'day' ? 'Your live session is tomorrow' : 'Your live session starts in an hour'),
        greeting(name),
        paragraph(`${sessionTitle}, with ${host}: ${when}.`),
        paragraph(`The join link appears on the session's page ${COACHING.joinOpensMinutesBefore} minutes before the start.`),
        action(pageUrl, 'Open the session'),
      ],
      unsubscribeUrl,
    ),

  coachingMoved: ({ name, title: sessionTitle, when, pageUrl }: CoachingMail) =>
    compose(`New time: ${sessionTitle}`, `${sessionTitle} now starts ${when}.`, [
      title('Your live session has a new time'),
      greeting(name),
      paragraph(`${sessionTitle}, which you RSVP'd to, now starts ${when}. Your place is kept.`),
      paragraph('Cannot make the new time? Cancel your RSVP on the session page so someone else can join.'),
      action(pageUrl, 'Open the session'),
    ]),

  coachingChanged: ({ name, title: sessionTitle, when, pageUrl }: CoachingMail) =>
    compose(`Updated: ${sessionTitle}`, `${sessionTitle}, ${when}, has changed: see what is new.`, [
      title('Your live session has changed'),
      greeting(name),
      paragraph(
        `${sessionTitle}, ${when}, which you signed up for, has changed: its title, host, plan, place or join link. Your place is kept.`,
      ),
      paragraph('See what is new on the session page; your calendar updates itself if you subscribed to your calendar address.'),
      action(pageUrl, 'Open the session'),
    ]),

  coachingCancelled: ({ name, title: sessionTitle, when, pageUrl }: CoachingMail) =>
    compose(`Cancelled: ${sessionTitle}`, `${sessionTitle}, ${when}, will not take place.`, [
      title('Your live session was cancelled'),
      greeting(name),
      paragraph(`${sessionTitle}, planned for ${when}, will not take place. We are sorry for the change of plans.`),
      paragraph('The other sessions are on the coaching page:'),
      action(pageUrl, 'See the coaching sessions'),
    ]),

  coachingPlaceOpened: ({ name, title: sessionTitle, when, pageUrl }: CoachingMail) =>
    compose(`You're in: ${sessionTitle}`, `A place opened at ${sessionTitle}, ${when}, and it is yours.`, [
      title('A place opened, and it is yours'),
      greeting(name),
      paragraph(`Someone gave back their place at ${sessionTitle}, ${when}, and you were next on the waiting list: you are in.`),
      paragraph('Cannot make it after all? Cancel your RSVP on the page so the next member waiting gets the place.'),
      action(pageUrl, 'Open the page'),
    ]),

  oneOnOneForMember: ({ name, change, with: coach, when, before, topic, pageUrl }: OneOnOneMail) =>
    compose(`${ONE_ON_ONE_SUBJECT[change]}: your 1-on-1 with ${coach}`, `Your 1-on-1 with ${coach}, ${when}.`, [
      title(
        change === 'cancelled' ? 'Your 1-on-1 is cancelled' : change === 'moved' ? 'Your 1-on-1 has a new time' : 'Your 1-on-1 is booked',
      ),
      greeting(name),
      paragraph(
        change === 'cancelled'
          ? `Your 1-on-1 with ${coach}, ${when}, is cancelled. This month's 1-on-1 is yours to book again.`
          : change === 'moved'
            ? `Your 1-on-1 with ${coach} moved from ${before} to ${when}.`
            : `Your 1-on-1 with ${coach} is booked for ${when}. The calendar file attached adds it to your calendar.`,
      ),
      ...(topic && change !== 'cancelled' ? [paragraph(`You want to work on: ${topic}`)] : []),
      ...(change === 'cancelled' ? [] : [paragraph('You can reschedule or cancel it up to 24 hours before it starts.')]),
      action(pageUrl, change === 'cancelled' ? 'Book another time' : 'See your 1-on-1'),
    ]),

  oneOnOneForCoach: ({ name, change, with: member, when, before, topic, pageUrl }: OneOnOneMail) =>
    compose(`${ONE_ON_ONE_SUBJECT[change]}: 1-on-1 with ${member}`, `${member}, ${when}.`, [
      title(change === 'cancelled' ? 'A 1-on-1 was cancelled' : change === 'moved' ? 'A 1-on-1 moved' : 'A new 1-on-1'),
      greeting(name),
      paragraph(
        change === 'cancelled'
          ? `${member} cancelled their 1-on-1 of ${when}. The time is free again.`
          : change === 'moved'
            ? `${member} moved their 1-on-1 from ${before} to ${when}.`
            : `${member} booked a 1-on-1 with you for ${when}.`,
      ),
      ...(topic && change !== 'cancelled' ? [paragraph(`They want to work on: ${topic}`)] : []),
      action(pageUrl, 'See your 1-on-1s'),
    ]),

  goalReminder: ({ name, goal, pageUrl, unsubscribeUrl }: { name: string; goal: GoalView; pageUrl: string; unsubscribeUrl: string }) => {
    const standing =
      goal.kind === 'course'
        ? `${goal.done} of ${goal.target} lessons done, ${goal.period_label}.`
        : `${goal.done} of ${goal.target} ${goal.unit} ${goal.period_label}.`;
    return compose(
      `Your goal: ${goal.title}`,
      standing,
      [
        title(goal.reached ? 'Goal reached: keep it going' : 'A nudge toward your goal'),
        greeting(name),
        paragraph(`${goal.title}: ${standing}`),
        ...(goal.streak_days > 1 ? [paragraph(`You are on a ${goal.streak_days}-day streak.`)] : []),
        paragraph('Log what you did today from your dashboard: it takes two taps.'),
        action(pageUrl, 'Open my dashboard'),
      ],
      unsubscribeUrl,
    );
  },

  weeklyTips: ({
    name,
    tips,
    settingsUrl,
    unsubscribeUrl,
  }: {
    name: string;
    tips: { title: string; text: string }[];
    settingsUrl: string;
    unsubscribeUrl: string;
  }) =>
    compose(
      'Your tips for the week',
      tips[0]?.title ?? 'This week’s tips',
      [
        title('Your tips for the week'),
        greeting(name),
        ...tips.flatMap((tip) => [paragraph(tip.title), paragraph(tip.text)]),
        paragraph('Rather not get these? Switch the weekly tips off on your account page:'),
        action(settingsUrl, 'My account'),
      ],
      unsubscribeUrl,
    ),

  accountDeleted: ({ name }: { name: string }) =>
    compose(`Your ${BRAND_NAME} account was deleted`, 'Your account and personal data were deleted.', [
      title('Your account was deleted'),
      greeting(name),
      paragraph('As you asked, your account was deleted along with your personal data, progress and certificates.'),
      paragraph('Thank you for learning with us. You are always welcome back.'),
    ]),
};
