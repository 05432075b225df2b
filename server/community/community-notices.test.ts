import { describe, expect, it } from 'vitest';
import { mentionedNames } from './community-notices.ts';

describe('mentionedNames', () => {
  it('reads each @name of up to three words, longest reading first, and not inside an address', () => {
    expect(mentionedNames('Thanks @Mina Mentioned, and @Ana María Ruiz too!')).toEqual([
      ['mina mentioned', 'mina'],
      ['ana maría ruiz', 'ana maría', 'ana'],
    ]);
    expect(mentionedNames('Write to me@example.com or see @@twice')).toEqual([]);
    expect(mentionedNames('@Zoe')).toEqual([['zoe']]);
  });

  it('reads a handful of mentions at most', () => {
    expect(mentionedNames(Array.from({ length: 9 }, (_, index) => `@Name${String.fromCharCode(97 + index)}`).join(' '))).toHaveLength(5);
  });
});
