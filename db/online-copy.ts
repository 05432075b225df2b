import fs from 'node:fs';
import path from 'node:path';

// A copy of a database directory taken while the database runs, with the database held still only
// for a moment. A first pass copies every file while queries go on; a second pass, while nothing
// writes (`holdStill`), copies again only what changed since the first looked at it. The result is
// the directory as it was during the second pass: crash-consistent, as a copy made entirely under
// the hold would be, but with a hold of milliseconds instead of the whole copy's seconds.

/** A file's identity as the first pass saw it, before copying it. */
interface Seen {
  size: number;
  mtimeMs: number;
}

/**
 * A write right after the first pass's look can leave the modification time unchanged (the file
 * system's clock ticks coarsely): a file modified this close to that look is copied again anyway.
 */
const CLOCK_TICK_MARGIN_MS = 1_000;

async function* walk(root: string, relative = ''): AsyncGenerator<{ relative: string; directory: boolean }> {
  for (const entry of await fs.promises.readdir(path.join(root, relative), { withFileTypes: true })) {
    const entryPath = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      yield { relative: entryPath, directory: true };
      yield* walk(root, entryPath);
    } else if (entry.isFile()) {
      yield { relative: entryPath, directory: false };
    }
  }
}

/** Copies `source` into the empty directory `target`, holding the database still only for the second pass. */
export async function copyWhileRunning(
  source: string,
  target: string,
  holdStill: (work: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const seen = new Map<string, Seen>();
  const firstPassAt = Date.now();
  for await (const entry of walk(source)) {
    const from = path.join(source, entry.relative);
    const to = path.join(target, entry.relative);
    if (entry.directory) {
      await fs.promises.mkdir(to, { recursive: true });
      continue;
    }
    // A file may go away between the listing and its copy (a removed WAL segment): the second pass decides.
    const stat = await fs.promises.stat(from).catch(() => undefined);
    if (!stat) continue;
    seen.set(entry.relative, { size: stat.size, mtimeMs: stat.mtimeMs });
    await fs.promises.copyFile(from, to).catch(() => seen.delete(entry.relative));
  }

  await holdStill(async () => {
    const present = new Set<string>();
    for await (const entry of walk(source)) {
      const to = path.join(target, entry.relative);
      present.add(entry.relative);
      if (entry.directory) {
        await fs.promises.mkdir(to, { recursive: true });
        continue;
      }
      const stat = await fs.promises.stat(path.join(source, entry.relative));
      const before = seen.get(entry.relative);
      const unchanged =
        before !== undefined &&
        before.size === stat.size &&
        before.mtimeMs === stat.mtimeMs &&
        before.mtimeMs < firstPassAt - CLOCK_TICK_MARGIN_MS;
      if (!unchanged) await fs.promises.copyFile(path.join(source, entry.relative), to);
    }
    // What the database removed since the first pass is not part of the copy either.
    for (const relative of seen.keys()) {
      if (!present.has(relative)) await fs.promises.rm(path.join(target, relative), { force: true });
    }
  });
}
