import type { Redis } from 'ioredis';
import { HttpError } from './errors.ts';

export interface AttemptLimit {
  max: number;
  windowMs: number;
  /** After `max`, each further attempt doubles the wait (staff sign-in). */
  growing?: boolean;
}

interface Counter {
  /** Counts one attempt; returns the count and how long until the count resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  extend(key: string, ttlMs: number): Promise<void>;
}

class MemoryCounter implements Counter {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();
  async hit(key: string, windowMs: number) {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    if (this.entries.size > 50_000) this.prune(now);
    return { count: entry.count, ttlMs: entry.resetAt - now };
  }
  async extend(key: string, ttlMs: number) {
    const entry = this.entries.get(key);
    if (entry) entry.resetAt = Math.max(entry.resetAt, Date.now() + ttlMs);
  }
  private prune(now: number) {
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }
}

// Shared between server processes when REDIS_URL is set.
class RedisCounter implements Counter {
  private readonly redis: Redis;
  constructor(redis: Redis) {
    this.redis = redis;
  }
  async hit(key: string, windowMs: number) {
    const results = await this.redis.multi().incr(key).pexpire(key, windowMs, 'NX').pttl(key).exec();
    const count = Number(results?.[0]?.[1] ?? 1);
    const ttlMs = Number(results?.[2]?.[1] ?? windowMs);
    return { count, ttlMs: ttlMs > 0 ? ttlMs : windowMs };
  }
  async extend(key: string, ttlMs: number) {
    await this.redis.pexpire(key, ttlMs, 'GT');
  }
}

/**
 * Counts attempts per key (a client address, an account) and refuses with 429 past the limit.
 * Counts live in Redis when configured, so every server process sees the same numbers.
 */
export class AttemptLimiter {
  private readonly counter: Counter;
  private readonly prefix: string;

  constructor(prefix: string, redis?: Redis) {
    this.prefix = prefix;
    this.counter = redis ? new RedisCounter(redis) : new MemoryCounter();
  }

  async check(scope: string, key: string, limit: AttemptLimit): Promise<void> {
    const fullKey = `${this.prefix}:${scope}:${key.toLowerCase()}`;
    let result: { count: number; ttlMs: number };
    try {
      result = await this.counter.hit(fullKey, limit.windowMs);
    } catch {
      // Redis unreachable: let the request through rather than lock everyone out.
      return;
    }
    if (result.count <= limit.max) return;
    let waitMs = result.ttlMs;
    if (limit.growing) {
      waitMs = Math.max(waitMs, Math.min(limit.windowMs * 2 ** (result.count - limit.max - 1), 24 * 60 * 60 * 1000));
      await this.counter.extend(fullKey, waitMs).catch(() => {});
    }
    const seconds = Math.ceil(waitMs / 1000);
    const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
    throw new HttpError(429, `Too many attempts. Please wait ${wait} and try again.`);
  }
}
