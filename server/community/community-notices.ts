import { NOTIFICATIONS } from '../../common/limits.ts';
import { mayReadPostsIn, tierToReadPostsIn } from '../../common/policies.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { Repositories } from '../repositories.ts';
import type { PostRow, ReplyRow } from './community.repository.ts';

/** A member a mention may name, as the members repository reads them. */
type NamedMember = Awaited<ReturnType<Repositories['members']['namedAny']>>[number];
import { excerpt } from './community-views.ts';

// What the community tells its members (server/notifications/): a reply to their discussion or to a
// discussion they replied in, a mention of them (@name), likes of their discussion. Each is written
// in the transaction of what happened, once, and only to a member who may read where it happened
// (the Gold Lounge is Gold's; the check is made again whenever the notification is read).

const discussionPath = (post: { id: string }) => `/community/${encodeURIComponent(post.id)}`;

// `@` then a name of one to three words (letters, apostrophes, hyphens), not inside a word or an address.
const MENTION = /(?:^|[^\p{L}\p{N}@._-])@(\p{L}[\p{L}'’-]*(?:[ \t]+\p{L}[\p{L}'’-]*){0,2})/gu;

/** The names a text mentions, each with the longer readings first ("@Ana Ruiz Diaz": three words, two, one). */
export function mentionedNames(text: string): string[][] {
  const found: string[][] = [];
  for (const match of text.matchAll(MENTION)) {
    const words = match[1]!.split(/[ \t]+/);
    found.push(
      words.map((_, index) =>
        words
          .slice(0, words.length - index)
          .join(' ')
          .toLowerCase(),
      ),
    );
    if (found.length >= NOTIFICATIONS.mentionsPerPost) break;
  }
  return found;
}

export function createCommunityNotices(deps: { notifier: Notifier; mailer: Mailer }) {
  const { notifier, mailer } = deps;

  /**
   * The members a text names with @ who may read it (`mayRead`): for each mention, those of the
   * longest reading that names any such member (a few at most). Those who may not read it are left
   * out before the few are chosen, so namesakes elsewhere never crowd out the one meant.
   */
  async function mentioned(tx: Repositories, text: string, mayRead: (member: NamedMember) => boolean) {
    const readings = mentionedNames(text);
    if (readings.length === 0) return [];
    const named = await tx.members.namedAny(
      [...new Set(readings.flat())],
      NOTIFICATIONS.mentionsPerPost * NOTIFICATIONS.membersPerMention * 3,
    );
    const chosen = new Map<string, (typeof named)[number]>();
    for (const reading of readings) {
      for (const name of reading) {
        const matches = named.filter((member) => member.name.toLowerCase() === name && mayRead(member));
        if (matches.length === 0) continue;
        for (const member of matches.slice(0, NOTIFICATIONS.membersPerMention)) chosen.set(member.id, member);
        break;
      }
    }
    return [...chosen.values()];
  }

  /** Those a discussion or reply names with @, who may read where it is (never its writer, nor those told already). */
  async function mentions(
    tx: Repositories,
    post: PostRow,
    item: { id: string; authorId: string | null; authorName: string; text: string },
    told: Set<string | null> = new Set(),
  ): Promise<void> {
    const members = await mentioned(tx, item.text, (candidate) => mayReadPostsIn(candidate, post.space));
    await notifier.notifyAll(
      tx,
      members.filter((member) => member.id !== item.authorId && !told.has(member.id)),
      {
        kind: 'mention',
        groupKey: `mention:${item.id}`,
        title: `${item.authorName} mentioned you in “${post.title}”`,
        body: excerpt(item.text),
        url: discussionPath(post),
        requiredTier: tierToReadPostsIn(post.space),
      },
    );
  }

  return {
    mentions,

    /** A new reply: its discussion's author, and those who replied before in it (the latest few). */
    async replied(tx: Repositories, post: PostRow, reply: ReplyRow): Promise<void> {
      const told = new Set([reply.authorId]);
      if (post.authorId && post.authorId !== reply.authorId) {
        const author = await tx.members.findAccount({ id: post.authorId });
        if (author && mayReadPostsIn(author, post.space)) {
          told.add(author.id);
          await notifier.notify(tx, author, {
            kind: 'reply',
            groupKey: `reply:${reply.id}`,
            title: `${reply.authorName} replied to “${post.title}”`,
            body: excerpt(reply.body),
            url: discussionPath(post),
            requiredTier: tierToReadPostsIn(post.space),
            mailKind: 'community-reply',
            mail: (unsubscribeUrl) =>
              mailTemplates.communityReply({
                name: author.name,
                postTitle: post.title,
                replierName: reply.authorName,
                excerpt: excerpt(reply.body),
                postUrl: mailer.link(discussionPath(post)),
                unsubscribeUrl,
              }),
          });
        }
      }
      // Those who replied before, told of it together (each once, and only where they may read).
      const earlier = (await tx.community.recentRepliers(post.id, NOTIFICATIONS.mentionsPerPost * 2)).filter(
        (member) => !told.has(member.id) && mayReadPostsIn(member, post.space),
      );
      for (const member of earlier) told.add(member.id);
      await notifier.notifyAll(tx, earlier, {
        kind: 'reply',
        groupKey: `reply:${reply.id}`,
        title: `${reply.authorName} also replied in “${post.title}”`,
        body: excerpt(reply.body),
        url: discussionPath(post),
        requiredTier: tierToReadPostsIn(post.space),
      });
      await mentions(tx, post, { id: reply.id, authorId: reply.authorId, authorName: reply.authorName, text: reply.body }, told);
    },

    /** A like of a discussion: its author's one notification for the discussion counts one more. */
    async liked(tx: Repositories, post: PostRow, liker: { id: string; name: string }, likes: number): Promise<void> {
      if (!post.authorId || post.authorId === liker.id) return;
      const author = await tx.members.findAccount({ id: post.authorId });
      if (!author || !mayReadPostsIn(author, post.space)) return;
      await notifier.notify(tx, author, {
        kind: 'like',
        groupKey: `like:${post.id}`,
        title: likes > 1 ? `${liker.name} and others liked “${post.title}”` : `${liker.name} liked “${post.title}”`,
        body: likes === 1 ? '' : `${likes} likes in all`,
        url: discussionPath(post),
        requiredTier: tierToReadPostsIn(post.space),
        gathers: true,
      });
    },
  };
}

export type CommunityNotices = ReturnType<typeof createCommunityNotices>;
