import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyWhileRunning } from './online-copy.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-online-copy-'));
  dirs.push(dir);
  return dir;
};
const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

describe('copyWhileRunning', () => {
  it('ends as the directory was while held still: what changed, appeared or went away after the first pass included', async () => {
    const source = tempDir();
    const target = tempDir();
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.mkdirSync(path.join(source, 'base/1'), { recursive: true });
    fs.mkdirSync(path.join(source, 'pg_tblspc'));
    for (const name of ['base/1/old', 'base/1/changed', 'base/1/removed', 'pg_control']) {
      fs.writeFileSync(path.join(source, name), `${name} as first seen`);
      fs.utimesSync(path.join(source, name), hourAgo, hourAgo);
    }
    // Written just before the copy, then again with the same size and time (a coarse file-system clock).
    fs.writeFileSync(path.join(source, 'pg_wal'), 'wal one');
    const recent = fs.statSync(path.join(source, 'pg_wal'));

    let heldWith: string | undefined;
    await copyWhileRunning(source, target, async (work) => {
      fs.writeFileSync(path.join(source, 'base/1/changed'), 'changed after the first pass, longer');
      fs.rmSync(path.join(source, 'base/1/removed'));
      fs.writeFileSync(path.join(source, 'base/1/new'), 'new');
      fs.writeFileSync(path.join(source, 'pg_wal'), 'wal two');
      fs.utimesSync(path.join(source, 'pg_wal'), recent.atime, recent.mtime);
      await work();
      heldWith = read(target, 'base/1/changed');
    });

    expect(heldWith).toBe('changed after the first pass, longer');
    expect(read(target, 'base/1/old')).toBe('base/1/old as first seen');
    expect(read(target, 'base/1/new')).toBe('new');
    expect(read(target, 'pg_wal')).toBe('wal two');
    expect(fs.existsSync(path.join(target, 'base/1/removed'))).toBe(false);
    // Empty directories are part of a database directory too.
    expect(fs.statSync(path.join(target, 'pg_tblspc')).isDirectory()).toBe(true);
  });
});
