import { describe, expect, it } from 'vitest';
import { displayName, storageKeyFor } from './upload-checks.ts';

describe('uploaded file names', () => {
  it('keeps only a clean display name from hostile client filenames', () => {
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('..\\..\\Windows\\win.ini')).toBe('win.ini');
    expect(displayName('report\u0000.pdf\u0007')).toBe('report.pdf');
    expect(displayName('<img onerror=x>.pdf')).toBe('img onerror=x.pdf');
    expect(displayName('')).toBe('file');
    expect(displayName('a'.repeat(500) + '.pdf')).toHaveLength(200);
  });

  it('stores files under a random server-chosen key in their folder', () => {
    const first = storageKeyFor('ebooks', 'pdf');
    expect(first).toMatch(/^ebooks\/[0-9a-f]{32}\.pdf$/);
    expect(storageKeyFor('ebooks', 'pdf')).not.toBe(first);
  });
});
