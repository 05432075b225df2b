import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { ServiceError } from '../../common/errors.ts';
import { IN_PROCESS_COUNTS } from '../../common/limits.ts';

export interface AttemptLimit {
  max: number;
  windowMs: number;
  /** Past `max`, each further failure doubles the wait (staff sign-in). */
  growing?: boolean;
}

interface Count {
  count: number;
  ttlMs: number;
}

interface Counter {
  /** Forgets every count whose key starts with this prefix. */
  forget(prefix: string): Promise<void>;
  /** Counts one attempt; returns the count and how long until it resets. */
  hit(key: string, windowMs: number): Promise<Count>;
  peek(key: string): Promise<Count>;
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
    if (this.entries.size > IN_PROCESS_COUNTS.pruneAbove) this.prune(now);
    return { count: entry.count, ttlMs: entry.resetAt - now };
  }
  async peek(key: string) {
    const entry = this.entries.get(key);
    const now = Date.now();
    return entry && entry.resetAt > now ? { count: entry.count, ttlMs: entry.resetAt - now } : { count: 0, ttlMs: 0 };
  }
  async forget(prefix: string) {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
  async extend(key: string, ttlMs: number) {
    const entry = this.entries.get(key);
    if (entry) entry.resetAt = Math.max(entry.resetAt, Date.now() + ttlMs);
  }
  private prune(now: number) {
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
    // Still too many live counts (a flood of addresses): the oldest windows go first.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= IN_PROCESS_COUNTS.maxEntries) break;
      this.entries.delete(key);
    }
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
  async peek(key: string) {
    const results = await this.redis.multi().get(key).pttl(key).exec();
    return { count: Number(results?.[0]?.[1] ?? 0), ttlMs: Math.max(Number(results?.[1]?.[1] ?? 0), 0) };
  }
  async extend(key: string, ttlMs: number) {
    await this.redis.pexpire(key, ttlMs, 'GT');
  }
  async forget(prefix: string) {
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

/**
 * Redis while it answers, this process's own counts while it does not: a limit never switches off.
 * Counts made here during an outage stay here and are added to Redis's once it is back, so a
 * guesser gains no tries from an outage.
 */
class CounterWithFallback implements Counter {
  private readonly shared: Counter;
  private readonly local: Counter;
  constructor(shared: Counter, local: Counter) {
    this.shared = shared;
    this.local = local;
  }
  async hit(key: string, windowMs: number) {
    const shared = await this.shared.hit(key, windowMs).catch(() => null);
    if (!shared) return this.local.hit(key, windowMs);
    const local = await this.local.peek(key);
    return { count: shared.count + local.count, ttlMs: Math.max(shared.ttlMs, local.ttlMs) };
  }
  async peek(key: string) {
    const [shared, local] = await Promise.all([this.shared.peek(key).catch(() => null), this.local.peek(key)]);
    if (!shared) return local;
    return { count: shared.count + local.count, ttlMs: Math.max(shared.ttlMs, local.ttlMs) };
  }
  extend(key: string, ttlMs: number) {
    return Promise.all([this.shared.extend(key, ttlMs).catch(() => {}), this.local.extend(key, ttlMs)]).then(() => {});
  }
  forget(prefix: string) {
    return Promise.all([this.shared.forget(prefix).catch(() => {}), this.local.forget(prefix)]).then(() => {});
  }
}

const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

function tooMany(waitMs: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return new ServiceError(429, `Too many attempts. Please wait ${wait} and try again.`);
}

/** An IPv6 address's eight blocks, as hexadecimal text (an IPv4 tail as two blocks). */
function ipv6Blocks(address: string): string[] {
  const withoutZone = address.replace(/%.*$/, '');
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(withoutZone);
  const hex = ipv4Tail
    ? withoutZone.slice(0, ipv4Tail.index) +
      [((+ipv4Tail[1]! << 8) | +ipv4Tail[2]!).toString(16), ((+ipv4Tail[3]! << 8) | +ipv4Tail[4]!).toString(16)].join(':')
    : withoutZone;
  const [head = '', tail] = hex.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  return [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
}

/**
 * The client a limit counts, from its address: an IPv6 client is given a whole /64 and may pick any
 * address in it, so the /64 is the client (an IPv4 address written as IPv6 is that IPv4 address).
 */
function clientNetwork(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const prefix = ipv6Blocks(address)
    .slice(0, 4)
    .map((block) => parseInt(block, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * Counts attempts per key (a client address, an account) and refuses with 429 past the limit.
 * Counts live in Redis when configured, so every server process sees the same numbers. When Redis
 * is unreachable, each process counts on its own until it is back (limits fail closed, never open).
 */
export class AttemptLimiter {
  private readonly counter: Counter;
  private readonly prefix: string;

  constructor(prefix: string, redis?: Redis) {
    this.prefix = prefix;
    this.counter = redis ? new CounterWithFallback(new RedisCounter(redis), new MemoryCounter()) : new MemoryCounter();
  }

  // A client address in a key (alone, or paired with an account as `email|address`) counts as its network.
  private key(scope: string, key: string) {
    return `${this.prefix}:${scope}:${key.toLowerCase().split('|').map(clientNetwork).join('|')}`;
  }

  /** Counts this attempt and refuses it past the limit (every sign-in and sign-up, the contact form). */
  async check(scope: string, key: string, limit: AttemptLimit): Promise<void> {
    const result = await this.count(this.key(scope, key), limit);
    if (result && result.count > limit.max) throw tooMany(result.ttlMs);
  }

  /**
   * Refuses while this key has failed `max` times (sign-in: only failures count). With `growing`,
   * an attempt made while refused counts as another failure, so an attacker who keeps guessing waits
   * longer and longer instead of getting a fresh window.
   */
  async ensureNotBlocked(scope: string, key: string, limit: AttemptLimit): Promise<void> {
    const fullKey = this.key(scope, key);
    const seen = await this.counter.peek(fullKey).catch(() => null);
    if (!seen || seen.count < limit.max) return;
    const result = limit.growing ? ((await this.count(fullKey, limit)) ?? seen) : seen;
    throw tooMany(result.ttlMs);
  }

  /** Counts a failed attempt; with `growing`, each failure past the limit doubles the wait. */
  async recordFailure(scope: string, key: string, limit: AttemptLimit): Promise<void> {
    await this.count(this.key(scope, key), limit);
  }

  /** Forgets the counts of one scope whose key starts with `keyPrefix` (a member who reset their password). */
  async forget(scope: string, keyPrefix: string): Promise<void> {
    await this.counter.forget(this.key(scope, keyPrefix)).catch(() => {});
  }

  private async count(fullKey: string, limit: AttemptLimit): Promise<Count | null> {
    const result = await this.counter.hit(fullKey, limit.windowMs).catch(() => null);
    if (!result || !limit.growing || result.count < limit.max) return result;
    const waitMs = Math.min(limit.windowMs * 2 ** (result.count - limit.max), MAX_WAIT_MS);
    await this.counter.extend(fullKey, waitMs).catch(() => {});
    return { count: result.count, ttlMs: Math.max(result.ttlMs, waitMs) };
  }
}
