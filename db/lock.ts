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

// A lock file younger than this that cannot be read is being written by its owner right now.
const FRESH_LOCK_MS = 10_000;

export interface DirectoryLock {
  path: string;
  release(): void;
}

interface Owner {
  pid: number;
  purpose?: string;
  since?: string;
}

/**
 * Takes the lock atomically: the owner's details are written to a file of our own first, then
 * hard-linked into place, which fails if a lock exists. No other process can ever see a lock file
 * that is there but not yet written.
 */
function tryLink(lockPath: string, purpose: string): boolean {
  const draft = `${lockPath}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(draft, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() } satisfies Owner));
  try {
    fs.linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

export function acquireDirectoryLock(dataDir: string, purpose: string): DirectoryLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'database.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryLink(lockPath, purpose)) {
      heldByThisProcess.add(lockPath);
      let released = false;
      return {
        path: lockPath,
        release() {
          if (released) return;
          released = true;
          heldByThisProcess.delete(lockPath);
          if (readOwner(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    }
    const owner = readOwner(lockPath);
    if (owner && !isStale(lockPath, owner)) {
      throw new DatabaseLockedError(
        `The embedded database in ${dataDir} is in use by another process (PID ${owner.pid}, ${owner.purpose ?? 'unknown'} since ${owner.since ?? 'unknown'}).\n` +
          'The embedded database serves one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL) to run several.',
      );
    }
    if (!owner && isFresh(lockPath)) {
      throw new DatabaseLockedError(
        `The embedded database in ${dataDir} is being opened by another process right now. Try again in a moment.`,
      );
    }
    // A stale lock from a process that no longer runs (or an old unreadable one): take it over.
    removeStaleLock(lockPath, purpose);
  }
  throw new DatabaseLockedError(`Could not take the database lock at ${lockPath}.`);
}

function isFresh(lockPath: string): boolean {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs < FRESH_LOCK_MS;
  } catch {
    return false;
  }
}

function isStale(lockPath: string, owner: Owner | null): boolean {
  if (!owner) return !isFresh(lockPath);
  // Our own PID on a lock we do not hold: left by an earlier run that had the same PID (PID 1 in a container).
  return owner.pid === process.pid ? !heldByThisProcess.has(lockPath) : !isProcessAlive(owner.pid);
}

/**
 * Removes a stale lock. Several processes may find the same stale lock at once, so removing it is
 * itself guarded by a second lock, taken the same atomic way; whoever holds it looks again and
 * removes the lock only if it is still stale. A guard left by a crash is cleared after a while.
 */
function removeStaleLock(lockPath: string, purpose: string) {
  const guard = `${lockPath}.takeover`;
  if (!tryLink(guard, purpose)) {
    if (!isFresh(guard)) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    if (isStale(lockPath, readOwner(lockPath))) fs.rmSync(lockPath, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function readOwner(lockPath: string): Owner | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { pid?: unknown; purpose?: string; since?: string };
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, purpose: parsed.purpose, since: parsed.since } : null;
  } catch {
    return null;
  }
}
