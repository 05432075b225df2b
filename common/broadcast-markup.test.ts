import { describe, expect, it } from 'vitest';
import { blocksFor, parseBroadcast } from './broadcast-markup.ts';

describe("a broadcast's text", () => {
  const body = [
    '## Hello',
    'Read [the guide](https://example.com/guide) today.',
    '[silver]',
    '## For Silver',
    'Members only.',
    '[/silver]',
    '![Team photo](/api/files/abc)',
  ].join('\n');

  it('gives each tier the sections it reaches, and nothing above', () => {
    const sections = parseBroadcast(body);
    expect(blocksFor(sections, 'bronze')).toEqual([
      { kind: 'heading', text: 'Hello' },
      { kind: 'paragraph', parts: ['Read ', { text: 'the guide', href: 'https://example.com/guide' }, ' today.'] },
      { kind: 'image', src: '/api/files/abc', alt: 'Team photo' },
    ]);
    expect(blocksFor(sections, 'gold').map((block) => block.kind)).toEqual(['heading', 'paragraph', 'heading', 'paragraph', 'image']);
  });

  it('refuses sections left open, nested or closed twice, with what to do', () => {
    expect(() => parseBroadcast('[gold]\nSecret')).toThrow('The [gold] section is never closed: add [/gold].');
    expect(() => parseBroadcast('[gold]\n[silver]')).toThrow('Close the [gold] section before opening another one.');
    expect(() => parseBroadcast('[/gold]')).toThrow('[/gold] closes a section that is not open.');
  });
});
