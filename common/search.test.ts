import { describe, expect, it } from 'vitest';
import { matchesSearch } from './search.ts';

describe('matchesSearch', () => {
  const course = { title: 'Listing Presentation Mastery', description: 'Win more listings at the right price' };
  it('matches title or description regardless of case', () => {
    expect(matchesSearch(course, 'listing presentation')).toBe(true);
    expect(matchesSearch(course, 'RIGHT PRICE')).toBe(true);
    expect(matchesSearch(course, '  ')).toBe(true);
    expect(matchesSearch(course, 'luxury')).toBe(false);
  });
});
