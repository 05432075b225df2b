import fs from 'node:fs';
import path from 'node:path';

// PGlite corrupts its data directory when two processes open it at once (PGlite issues #709, #1106),
// so every process that opens the embedded database first takes this lock, which holds its PID.
export class DatabaseLockedError extends Error {}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Locks this process holds: a second open from the same process is refused too.
const heldByThisProcess = new Set<string>();

export interface DirectoryLock {
  path: string;
  release(): void;
}

export function acquireDirectoryLock(dataDir: string, purpose: string): DirectoryLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'database.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
      fs.closeSync(fd);
      heldByThisProcess.add(lockPath);
      let released = false;
      return {
        path: lockPath,
        release() {
          if (released) return;
          released = true;
          heldByThisProcess.delete(lockPath);
          try {
            const owner = readOwner(lockPath);
            if (owner?.pid === process.pid) fs.unlinkSync(lockPath);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      const ownerLives = owner !== null && (owner.pid === process.pid ? heldByThisProcess.has(lockPath) : isProcessAlive(owner.pid));
      if (owner && ownerLives) {
        throw new DatabaseLockedError(
          `The embedded database in ${dataDir} is in use by another process (PID ${owner.pid}, ${owner.purpose ?? 'unknown'} since ${owner.since ?? 'unknown'}).\n` +
            'The embedded database serves one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL) to run several.',
        );
      }
      // Stale lock from a process that no longer runs (or an unreadable one): take it over.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not take the database lock at ${lockPath}.`);
}

function readOwner(lockPath: string): { pid: number; purpose?: string; since?: string } | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { pid?: unknown; purpose?: string; since?: string };
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, purpose: parsed.purpose, since: parsed.since } : null;
  } catch {
    return null;
  }
}
