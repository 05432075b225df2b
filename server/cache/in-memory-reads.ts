import type { DataAccess } from '../repositories.ts';
import { DataVersion } from './data-version.ts';

/** Members whose own reads are kept at once; the least recently used go first. */
export const MEMBER_MEMO_ENTRIES = 30_000;

/**
 * Values read from the database once per data version. A value is kept with the version read
 * before loading it, so a change committed while it loads makes it stale at once rather than never.
 */
export class VersionedMemo {
  private readonly versions: DataVersion[];
  private readonly maxEntries: number;
  private readonly entries = new Map<string, { version: string; value: Promise<unknown> }>();

  /** Values stay while every one of `versions` holds. */
  constructor(versions: DataVersion[], maxEntries = Number.POSITIVE_INFINITY) {
    this.versions = versions;
    this.maxEntries = maxEntries;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const known = this.versions.every((version) => version.current >= 0);
    const version = this.versions.map((each) => each.current).join(':');
    const entry = this.entries.get(key);
    if (entry && entry.version === version && known) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value as Promise<T>;
    }
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    // A failed read is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

/**
 * The repositories with their public catalogue reads (courses and lessons, episodes, resources,
 * content sections, the community preview, the member count) answered from memory. Lookups by id
 * go through the cached lists, so unknown ids never fill the memory. Writes and transactions are
 * untouched. The values are shared: services map them to new objects and never change them.
 */
export function withPublicReadsInMemory(data: DataAccess, memo: VersionedMemo): DataAccess {
  const { courses, podcast, resources, content, community, members } = data;
  const courseList = () => memo.get('courses', () => courses.list());
  const communityList = () => memo.get('community', () => community.list());
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
    podcast: { ...podcast, list: () => memo.get('podcast', () => podcast.list()) },
    resources: { ...resources, list: () => memo.get('resources', () => resources.list()) },
    content: { ...content, find: (key) => memo.get(`content:${key}`, () => content.find(key)) },
    community: {
      ...community,
      list: communityList,
      findPost: async (id) => (await communityList()).find((post) => post.id === id) ?? null,
      replies: async (postId) =>
        (await communityList()).some((post) => post.id === postId) ? memo.get(`replies:${postId}`, () => community.replies(postId)) : [],
    },
    members: { ...members, count: () => memo.get('members:count', () => members.count()) },
  };
}

/**
 * The repositories with each member's own reads for their dashboard and pages (enrolments with
 * progress, certificates, current subscription, replies to their posts) answered from memory until
 * any of that data changes. Lists of members (staff reads) and transactions are untouched.
 */
export function withMemberReadsInMemory(data: DataAccess, memo: VersionedMemo): DataAccess {
  const { learning, billing, community } = data;
  return {
    ...data,
    community: {
      ...community,
      // Posts and replies are public data, so their version (part of this memo's) covers these.
      repliesTo: (memberId, limit) => memo.get(`replies-to:${memberId}:${limit}`, () => community.repliesTo(memberId, limit)),
    },
    learning: {
      ...learning,
      listEnrolments: (memberId) => memo.get(`enrolments:${memberId}`, () => learning.listEnrolments(memberId)),
      listCertificates: (memberId) => memo.get(`certificates:${memberId}`, () => learning.listCertificates(memberId)),
    },
    billing: {
      ...billing,
      currentOf: (memberIds) =>
        memberIds.length === 1
          ? memo.get(`subscription:${memberIds[0]}`, () => billing.currentOf(memberIds))
          : billing.currentOf(memberIds),
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
