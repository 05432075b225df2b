import fs from 'node:fs';
import path from 'node:path';

/**
 * A file of the browser's build (build/client), read once at start; null where there is none (the
 * dev server). The server build's code may sit in its entry (build/server/index.js) or in one of
 * its chunks (build/server/assets/), so both levels are looked at.
 */
export function readBuiltClientFile(file: string): Buffer | null {
  for (const up of ['..', '../..']) {
    try {
      return fs.readFileSync(path.join(import.meta.dirname, up, 'client', file));
    } catch {
      // Not at this level.
    }
  }
  return null;
}
