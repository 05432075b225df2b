import { describe, expect, it } from 'vitest';
import { CONTENT_DEFAULTS } from './content-sections.ts';
import { helpTopics, parseAnswers, searchHelp } from './help-center.ts';

describe('the Help Center topics', () => {
  it('reads a question per block, with a multi-line answer, whatever the line endings and spacing', () => {
    expect(parseAnswers('First?\r\nAnswer one.\r\nMore.\r\n\r\n\r\n  Second?\nAnswer two.\n  \n')).toEqual([
      { question: 'First?', answer: 'Answer one.\nMore.' },
      { question: 'Second?', answer: 'Answer two.' },
    ]);
    expect(parseAnswers('   ')).toEqual([]);
  });

  it('puts the FAQ first, shows the answers the site came with in an empty topic, and what staff wrote instead', () => {
    const written = { ...CONTENT_DEFAULTS.help_center, billing_content: 'Can I pay by invoice?\nYes, for teams.' };
    const topics = helpTopics(written, [{ q: 'What is it?', a: 'A platform.' }]);
    expect(topics.map((topic) => topic.id)).toEqual(['faq', 'account', 'billing', 'courses', 'app']);
    expect(topics[0]!.answers).toEqual([{ question: 'What is it?', answer: 'A platform.' }]);
    expect(topics[2]!.answers).toEqual([{ question: 'Can I pay by invoice?', answer: 'Yes, for teams.' }]);
    expect(topics[1]!.answers[0]!.question).toBe('How do I change my name, email or password?');
    expect(helpTopics(written, []).map((topic) => topic.id)).toEqual(['account', 'billing', 'courses', 'app']);
  });

  it('finds answers holding every word searched for, in any case, and keeps only topics with a match', () => {
    const topics = helpTopics(CONTENT_DEFAULTS.help_center, []);
    const found = searchHelp(topics, '  CANCEL   membership ');
    expect(found.map((topic) => topic.id)).toEqual(['billing']);
    expect(found[0]!.answers.map((entry) => entry.question)).toEqual(['How do I cancel?']);
    expect(searchHelp(topics, 'zebra')).toEqual([]);
    expect(searchHelp(topics, '')).toBe(topics);
  });
});
