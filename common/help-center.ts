import type { ContentFields } from './content-sections.ts';

// The Help Center (/help): the topics staff write in the help_center content section, as
// questions and answers, and the search over them.

export interface HelpAnswer {
  question: string;
  answer: string;
}

export interface HelpTopic {
  id: string;
  title: string;
  answers: HelpAnswer[];
}

/**
 * The answers each topic shows while staff leave its field empty. They live here, not with the
 * other content defaults, which every page loads: only /help needs them.
 */
const HELP_TOPIC_DEFAULTS: Record<(typeof TOPICS)[number][2], string> = {
  account_content: `How do I change my name, email or password?
Open Account from the menu. Your name and email are at the top; a new email is confirmed by a link we send to it. Change your password under Password.

I forgot my password. What now?
Choose 'Forgot password?' on the login page and enter your email. We send a link that lets you choose a new password; it works for one hour.

Can I sign out of my other devices?
Yes. Under Account, Devices, 'Sign out of other devices' ends every session except the one you are using.

How do I stop the emails?
Every email we send that is not about your account itself has an unsubscribe link at the bottom. Account emails (password resets, receipts) always arrive.`,
  billing_content: `How do I upgrade or change my plan?
Open Pricing, choose monthly or yearly, and pick Bronze, Silver or Gold. You pay securely through Stripe and your new tier starts as soon as the payment goes through.

How do I cancel?
Open Account, Billing and choose 'Cancel membership'. You keep your plan until the end of the period you paid for, and nothing more is charged.

Where are my invoices and receipts?
Account, Billing lists your payments; 'View' opens each invoice. Each payment is also confirmed by email.

Is there a refund?
Yes: every paid plan has a 30-day money-back guarantee. Write to us from the Contact page within 30 days of your first payment.`,
  courses_content: `Which courses are included in my plan?
Each course shows the tier it needs. Free courses are open to everyone with an account; Bronze, Silver and Gold include their own courses and every course below them.

Does the player remember where I stopped?
Yes. Lessons continue where you stopped, on any device you sign in on. A lesson with a video is complete once you have watched most of it; the others have a 'Mark as complete' button.

How do I get a certificate?
Finish every lesson of a course that includes a certificate. It appears on your dashboard, by email, and anyone can check it with its code.`,
  app_content: `Is there an app?
Yes. Install it from 'Get the Mobile App' on your dashboard or the 'Download App' links at the bottom of every page. On an iPhone, open the site in Safari, tap Share, then 'Add to Home Screen'.

Can I use it offline?
Pages you have visited open without a connection. Bronze, Silver and Gold members can also save the downloads their plan includes with 'Save for offline' on the Resources page.

The podcast will not play.
The player comes from Spotify and needs a connection. Every episode also has a 'Listen on Spotify' link that opens the episode in the Spotify app or website.`,
};

/** The topic fields of the help_center section, in the order the page shows them. */
const TOPICS = [
  ['account', 'Your account', 'account_content'],
  ['billing', 'Billing and plans', 'billing_content'],
  ['courses', 'Courses and certificates', 'courses_content'],
  ['app', 'The app and offline use', 'app_content'],
] as const;

/** A topic's text: blocks parted by a blank line, each a question on its first line and its answer below. */
export function parseAnswers(text: string): HelpAnswer[] {
  return text
    .replaceAll('\r\n', '\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const [question = '', ...answer] = block.split('\n');
      return { question: question.trim(), answer: answer.join('\n').trim() };
    });
}

/** The Help Center's topics: the questions every page's FAQ answers first, then each staff-written topic. */
export function helpTopics(fields: ContentFields<'help_center'>, faqs: readonly { q: string; a: string }[]): HelpTopic[] {
  const topics: HelpTopic[] = [
    { id: 'faq', title: 'Frequently asked questions', answers: faqs.map((faq) => ({ question: faq.q, answer: faq.a })) },
    ...TOPICS.map(([id, title, field]) => ({ id, title, answers: parseAnswers(fields[field].trim() || HELP_TOPIC_DEFAULTS[field]) })),
  ];
  return topics.filter((topic) => topic.answers.length > 0);
}

/** Answers whose question or answer holds every word of the query (any case); the topics without any are left out. */
export function searchHelp(topics: HelpTopic[], query: string): HelpTopic[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return topics;
  return topics
    .map((topic) => ({
      ...topic,
      answers: topic.answers.filter((entry) => {
        const text = `${entry.question}\n${entry.answer}`.toLowerCase();
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((topic) => topic.answers.length > 0);
}
