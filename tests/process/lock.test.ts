import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDirectoryLock, DatabaseLockedError } from '../../db/lock.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('embedded database lock', () => {
  it('refuses a second owner while the first process lives, naming its PID', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'database.lock'), JSON.stringify({ pid: process.ppid, purpose: 'server on port 3000' }));
    expect(() => acquireDirectoryLock(dir, 'migration')).toThrow(DatabaseLockedError);
    expect(() => acquireDirectoryLock(dir, 'migration')).toThrow(new RegExp(`PID ${process.ppid}`));
  });

  it('takes over a stale lock left by a process that no longer runs', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'database.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, purpose: 'crashed server' }));
    const lock = acquireDirectoryLock(dir, 'server');
    expect(JSON.parse(fs.readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.path)).toBe(false);
  });

  it('can be taken again after release', () => {
    const dir = tempDir();
    acquireDirectoryLock(dir, 'first').release();
    const second = acquireDirectoryLock(dir, 'second');
    expect(fs.existsSync(second.path)).toBe(true);
    second.release();
  });
});
