import type { DataAccess } from '../repositories.ts';
import { DataVersion, versionsFor } from './data-version.ts';

/** What each memo may hold at most: entries, and bytes (estimated once per value, when it loads). */
interface MemoLimits {
  maxEntries: number;
  maxBytes: number;
}

/** A rough size of a value in memory: its JSON, with Maps and Sets as lists. */
function estimateBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) =>
      inner instanceof Map ? [...inner.entries()] : inner instanceof Set ? [...inner] : inner,
    );
    return 64 + 2 * (text?.length ?? 0);
  } catch {
    return 1024;
  }
}

interface Entry {
  version: string;
  value: Promise<unknown>;
  bytes: number;
}

/**
 * Values read from the database once per data version, bounded in entries and bytes (the least
 * recently used go first). A value is kept with the version read before loading it, so a change
 * committed while it loads makes it stale at once rather than never.
 */
export class VersionedMemo {
  private readonly versions: DataVersion[];
  private readonly limits: MemoLimits;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** Values stay while every one of `versions` holds. */
  constructor(versions: DataVersion[], limits: MemoLimits) {
    this.versions = versions;
    this.limits = limits;
  }

  /**
   * The value for `key`, kept while its versions hold: for what one member sees, name them
   * (`memberId`); for what a few discussions hold, name those (`{ discussions }`), and the
   * community's changes to other discussions leave it kept.
   */
  get<T>(key: string, load: () => Promise<T>, scope?: string | { discussions: readonly string[] }): Promise<T> {
    const version =
      typeof scope === 'object' ? versionsFor(this.versions, undefined, scope.discussions) : versionsFor(this.versions, scope);
    const entry = this.entries.get(key);
    if (entry && version !== null && entry.version === version) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value as Promise<T>;
    }
    this.remove(key);
    const value = load();
    const kept: Entry = { version: version ?? '', value, bytes: 256 };
    this.entries.set(key, kept);
    this.bytes += kept.bytes;
    value.then(
      (loaded) => {
        if (this.entries.get(key) !== kept) return;
        const bytes = estimateBytes(loaded);
        this.bytes += bytes - kept.bytes;
        kept.bytes = bytes;
        this.shrink();
      },
      // A failed read is not remembered.
      () => {
        if (this.entries.get(key) === kept) this.remove(key);
      },
    );
    this.shrink();
    return value;
  }

  /** Entries and bytes held now (tests and metrics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private shrink(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) return;
      this.remove(key);
    }
  }
}

/** What a memo's read rejects with when there is nothing to keep (a failed read is not remembered). */
const NOT_STORED = Symbol('not stored');

/**
 * The repositories with their public catalogue reads (courses and lessons, episodes, resources,
 * content sections, the member count) answered from memory: the podcast's first pages, not the
 * whole list. Lookups by id go through the cached course list, or keep only episodes found, so
 * unknown ids never fill the memory. Writes and transactions are untouched. The
 * values are shared: services map them to new objects and never change them.
 */
export function withPublicReadsInMemory(data: DataAccess, memo: VersionedMemo): DataAccess {
  const { courses, podcast, resources, content, members } = data;
  const courseList = () => memo.get('courses', () => courses.list());
  return {
    ...data,
    courses: {
      ...courses,
      list: courseList,
      findById: async (id) => (await courseList()).find((course) => course.id === id) ?? null,
      count: async () => (await courseList()).filter((course) => course.status === 'published').length,
      listLessons: async (courseId) =>
        (await courseList()).some((course) => course.id === courseId)
          ? memo.get(`lessons:${courseId}`, () => courses.listLessons(courseId))
          : [],
      listAttachments: async (courseId) =>
        (await courseList()).some((course) => course.id === courseId)
          ? memo.get(`attachments:${courseId}`, () => courses.listAttachments(courseId))
          : [],
    },
    podcast: {
      ...podcast,
      // The newest episodes (first pages, by size); later pages are read as asked.
      newest: (limit, before) =>
        before ? podcast.newest(limit, before) : memo.get(`podcast:newest:${limit}`, () => podcast.newest(limit)),
      count: () => memo.get('podcast:count', () => podcast.count()),
      // An episode is kept once found; a miss is not remembered, so unknown ids never fill the memory.
      findById: async (id) => {
        try {
          return await memo.get(`podcast:episode:${id}`, async () => (await podcast.findById(id)) ?? Promise.reject(NOT_STORED));
        } catch (error) {
          if (error === NOT_STORED) return null;
          throw error;
        }
      },
    },
    resources: { ...resources, list: () => memo.get('resources', () => resources.list()) },
    content: { ...content, find: (key) => memo.get(`content:${key}`, () => content.find(key)) },
    members: { ...members, count: () => memo.get('members:count', () => members.count()) },
  };
}

/**
 * The repositories with each member's own first pages for their dashboard and pages (enrolments
 * with progress, certificates, current subscription, replies to their posts, the bell's unread count) answered from memory
 * until that member's data changes (another member's changes leave them in memory): the replies
 * while the community holds too, the rest while the catalogue does. Later pages, lists of members
 * (staff reads) and transactions are untouched.
 */
export function withMemberReadsInMemory(data: DataAccess, memos: { own: VersionedMemo; repliesToOwnPosts: VersionedMemo }): DataAccess {
  const { learning, billing, community, notifications } = data;
  const memo = memos.own;
  return {
    ...data,
    // The bell on every page a member opens: its count moves with their own notifications only.
    notifications: {
      ...notifications,
      unread: (memberId, tiers, cap) =>
        memo.get(`unread:${memberId}:${tiers.join(',')}:${cap}`, () => notifications.unread(memberId, tiers, cap), memberId),
    },
    community: {
      ...community,
      repliesTo: (memberId, withGold, limit, before) =>
        before
          ? community.repliesTo(memberId, withGold, limit, before)
          : memos.repliesToOwnPosts.get(
              `replies-to:${memberId}:${withGold}:${limit}`,
              () => community.repliesTo(memberId, withGold, limit),
              memberId,
            ),
    },
    learning: {
      ...learning,
      listEnrolments: (memberId, limit, before) =>
        before
          ? learning.listEnrolments(memberId, limit, before)
          : memo.get(`enrolments:${memberId}:${limit}`, () => learning.listEnrolments(memberId, limit), memberId),
      listCertificates: (memberId, limit, before) =>
        before
          ? learning.listCertificates(memberId, limit, before)
          : memo.get(`certificates:${memberId}:${limit}`, () => learning.listCertificates(memberId, limit), memberId),
      countsOf: (memberId) => memo.get(`counts:${memberId}`, () => learning.countsOf(memberId), memberId),
    },
    billing: {
      ...billing,
      currentOf: (memberIds) =>
        memberIds.length === 1
          ? memo.get(`subscription:${memberIds[0]}`, () => billing.currentOf(memberIds), memberIds[0])
          : billing.currentOf(memberIds),
    },
  };
}

/**
 * The repositories with the community's first pages answered from memory while nothing in the
 * community changes (any discussion, reply or like moves its version): the newest and pinned
 * discussions of a space, its top ones, and a search's first window with its count. They are the
 * same for every member who may read the space; which of a page's discussions one member liked is
 * kept per member and page while those discussions hold. Later pages, and searches past their first
 * window, are read as asked.
 */
export function withCommunityReadsInMemory(data: DataAccess, memo: VersionedMemo, likes: VersionedMemo): DataAccess {
  const { community } = data;
  return {
    ...data,
    community: {
      ...community,
      pinned: (space, limit) => memo.get(`pinned:${space}:${limit}`, () => community.pinned(space, limit)),
      newest: (space, limit, before) =>
        before ? community.newest(space, limit, before) : memo.get(`newest:${space}:${limit}`, () => community.newest(space, limit)),
      top: (space, limit, before) =>
        before ? community.top(space, limit, before) : memo.get(`top:${space}:${limit}`, () => community.top(space, limit)),
      search: (space, words, limit, position) =>
        position.window || position.after
          ? community.search(space, words, limit, position)
          : memo.get(`search:${space}:${limit}:${words}`, () => community.search(space, words, limit, position)),
      countVisible: (space, words, cap) =>
        memo.get(`count:${space}:${cap ?? ''}:${words ?? ''}`, () => community.countVisible(space, words, cap)),
      // Which discussions of a page the member liked: kept while those discussions hold (their own
      // like or unlike changes the discussion), so a member reading the same page again asks nothing.
      likedAmong: (memberId, postIds) =>
        postIds.length === 0
          ? community.likedAmong(memberId, postIds)
          : likes.get(`${memberId}:${postIds.join(',')}`, () => community.likedAmong(memberId, postIds), { discussions: postIds }),
    },
  };
}

/**
 * After each write transaction commits, the process reads the data versions again, so what the
 * same request reads next (an action's page reloading its data, a service answering with what it
 * just saved) is never an older copy from memory. The database's announcement could come later.
 */
export function withReadsAfterWritesFresh(
  data: DataAccess,
  versions: DataVersion[],
  log: { warn(object: object, message: string): void },
): DataAccess {
  return {
    ...data,
    async transaction(work) {
      const result = await data.transaction(work);
      // The write stands; a failed read of the versions only delays fresh answers by the poll's second.
      await DataVersion.refreshAll(versions).catch((error: unknown) =>
        log.warn({ err: error }, 'could not read the data versions after a write'),
      );
      return result;
    },
  };
}
