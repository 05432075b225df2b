import { spawn } from 'node:child_process';
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

describe('embedded database lock under a race', () => {
  it('treats a lock file that is there but not yet readable as held', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'database.lock'), '');
    expect(() => acquireDirectoryLock(dir, 'second')).toThrow(DatabaseLockedError);
  });

  it('never lets two of four processes starting at once hold it together', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'holders.log');
    const racer = path.resolve(import.meta.dirname, 'fixtures/lock-racer.ts');
    for (let round = 0; round < 8; round++) {
      const data = path.join(dir, `round-${round}`);
      const runs = Array.from(
        { length: 4 },
        () =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, [racer, data, log], { stdio: 'inherit' });
            child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`racer exited with ${code}`))));
          }),
      );
      await Promise.all(runs);
    }
    const holds = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' ').map(Number) as [number, number, number]);
    expect(holds.length).toBeGreaterThanOrEqual(8);
    holds.sort((a, b) => a[1] - b[1]);
    for (let i = 1; i < holds.length; i++) {
      // Each hold starts after the one before it ended (holds of one round are in one data directory;
      // rounds run one after another).
      expect(holds[i]![1]).toBeGreaterThanOrEqual(holds[i - 1]![2]);
    }
  });
});
