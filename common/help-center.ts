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
    ...TOPICS.map(([id, title, field]) => ({ id, title, answers: parseAnswers(fields[field]) })),
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
