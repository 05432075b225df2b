import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { z } from 'zod';
import { BRAND_NAME } from '../../../common/brand.ts';
import {
  FeedQuery,
  NewPostInput,
  PostParams,
  PreviewQuery,
  type CommunityPost,
  type FeedResponse,
  type PostView,
} from '../../../common/community.contract.ts';
import { formatDate } from '../../../common/format.ts';
import { readsCommunityFeed } from '../../../common/policies.ts';
import { AuthorLine } from '../../components/community/author-line.tsx';
import { LikeButton } from '../../components/community/like-button.tsx';
import { LinkedText } from '../../components/community/linked-text.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Textarea } from '../../components/ui/field.tsx';
import { SearchForm } from '../../components/ui/search-form.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageServices, pageSession, showsDiscussions } from '../../lib/page-context.ts';
import type { SiteNumbers } from '../../../common/stats.contract.ts';
import type { Route } from './+types/community';
import { TEXT_MAX } from '../../../common/limits.ts';

export const meta = () =>
  pageMeta({
    title: 'Community',
    description: `Discussions among real estate agents and brokers in the ${BRAND_NAME} community.`,
    path: '/community',
  });

// Visitors get the spec's preview; members get the community itself: the feed, by space and order.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const numbers = await orFallback(services.stats.siteNumbers(), null, 'the site numbers');
  const asked = Object.fromEntries(new URL(request.url).searchParams);
  if (!readsCommunityFeed(viewer)) {
    const query = PreviewQuery.safeParse(asked);
    const before = query.success ? query.data.before : undefined;
    const [page, discussions] = await Promise.all([
      orFallback(services.community.preview(viewer, { before }), { items: [], next_cursor: null }, 'community posts'),
      orFallback(services.community.count(viewer), null, 'the discussion count'),
    ]);
    showsDiscussions(
      context,
      page.items.map((post) => post.id),
    );
    return { kind: 'preview' as const, numbers, posts: page.items, next: page.next_cursor, firstPage: before === undefined, discussions };
  }
  const query = FeedQuery.safeParse(asked);
  const asking = query.success ? query.data : FeedQuery.parse({});
  const feed = await attempt(() => services.community.feed(viewer, asking));
  // The Gold Lounge for a member who is not Gold (or a page link gone stale): the general feed, with the reason.
  if (!feed.ok) {
    const general = await services.community.feed(viewer, FeedQuery.parse({}));
    return { kind: 'feed' as const, numbers, feed: { ...general, firstPage: true }, notice: feed.message };
  }
  showsDiscussions(
    context,
    feed.value.posts.map((post) => post.id),
  );
  return { kind: 'feed' as const, numbers, feed: { ...feed.value, firstPage: asking.before === undefined }, notice: null };
}

const CommunityForm = z.discriminatedUnion('intent', [
  NewPostInput.extend({ intent: z.literal('post') }),
  z.object({ intent: z.enum(['like', 'unlike']), postId: PostParams.shape.id }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(CommunityForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const input = form.data;
  if (input.intent === 'post') {
    const posted = await attempt(() => services.community.createPost(viewer, input));
    if (!posted.ok) return posted.refusal;
    pageSession(context).flash({ type: 'success', message: 'Your discussion is posted.' });
    throw redirect(`/community/${encodeURIComponent(posted.value.id)}`);
  }
  const liked = await attempt(() => services.community.like(viewer, input.postId, input.intent === 'like'));
  return liked.ok ? { ok: true as const, ...liked.value } : liked.refusal;
}

function Header({ line }: { line: string }) {
  return (
    <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-14 text-center text-white sm:py-20">
      <h1 className="text-3xl font-extrabold sm:text-5xl">{BRAND_NAME} Community</h1>
      <p className="mt-4 text-gold-100">{line}</p>
    </section>
  );
}

function Stats({ discussions, numbers }: { discussions: number | null; numbers: SiteNumbers | null }) {
  return (
    <section className="border-b border-gray-200 bg-white">
      <dl className="mx-auto grid max-w-4xl grid-cols-[repeat(auto-fit,minmax(0,1fr))] gap-4 px-4 py-6 text-center">
        {numbers?.members && (
          <div>
            <dt className="sr-only">Members</dt>
            <dd className="font-bold text-brand-800">{`${numbers.members} Active Members`}</dd>
          </div>
        )}
        {discussions !== null && (
          <div>
            <dt className="sr-only">Discussions</dt>
            <dd className="font-bold text-brand-800" data-testid="discussion-count">
              {`${discussions.toLocaleString('en-US')} Discussions`}
            </dd>
          </div>
        )}
        {numbers?.daily_posts && (
          <div>
            <dt className="sr-only">Posts per day</dt>
            <dd className="font-bold text-brand-800">{`${numbers.daily_posts} Daily Posts`}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** SPEC 2: a visitor reads the first two posts; the rest are blurred, with an invitation. */
function PreviewCard({ post }: { post: CommunityPost }) {
  // The service leaves out the content of posts a visitor may not read, so the blur hides nothing real.
  const locked = post.content === null;
  return (
    <Card as="article" className="relative overflow-hidden" data-locked={locked}>
      <div className={locked ? 'select-none blur-sm' : ''} aria-hidden={locked}>
        <div className="flex items-center gap-3">
          <span className="grid h-10 w-10 place-items-center rounded-full bg-brand-800 font-bold text-gold-400">
            {post.user_name.charAt(0)}
          </span>
          <div>
            <p className="font-semibold text-gray-900">{post.user_name}</p>
            <p className="text-xs text-gray-500">{formatDate(post.created_at)}</p>
          </div>
        </div>
        <h3 className="mt-3 text-lg font-bold text-gray-900">{post.title}</h3>
        <p className="mt-2 text-gray-700">{locked ? 'Members read the full discussion and every reply in the community.' : post.content}</p>
        <p className="mt-3 text-sm text-gray-500">
          ♥ {post.likes_count} · {post.replies_count} replies
        </p>
      </div>
      {locked && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-white/60 text-center">
          <p className="font-semibold text-gray-900">Join to see full discussion</p>
          <ButtonLink to="/pricing" size="sm">
            View Membership Plans
          </ButtonLink>
        </div>
      )}
    </Card>
  );
}

function Preview({
  posts,
  next,
  firstPage,
  discussions,
  numbers,
}: {
  posts: CommunityPost[];
  next: string | null;
  firstPage: boolean;
  discussions: number | null;
  numbers: SiteNumbers | null;
}) {
  return (
    <>
      <Header line="Join our membership to participate" />
      <Stats discussions={discussions} numbers={numbers} />
      <section className="mx-auto max-w-4xl px-4 py-10">
        <h2 className="text-2xl font-bold text-gray-900">Recent Discussions</h2>
        {posts.length === 0 ? (
          <p className="py-12 text-center text-gray-500">No discussions found</p>
        ) : (
          <div className="mt-6 space-y-4">
            {posts.map((post) => (
              <PreviewCard key={post.id} post={post} />
            ))}
          </div>
        )}
        <PageLinks newest={firstPage ? null : '/community'} older={next ? `/community?${new URLSearchParams({ before: next })}` : null} />
      </section>
      <section className="mx-auto mb-16 max-w-4xl px-4">
        <div className="rounded-3xl bg-brand-50 px-6 py-10 text-center">
          <h2 className="text-2xl font-bold text-gray-900">Ready to join the conversation?</h2>
          <p className="mt-2 text-gray-600">Ask questions, share wins and learn from agents across the country.</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <ButtonLink to="/pricing">View Membership Plans</ButtonLink>
            <ButtonLink to="/signup" variant="outline">
              Create Free Account
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

function FeedCard({ post, canLike }: { post: PostView; canLike: boolean }) {
  return (
    <Card as="article" data-post-id={post.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <AuthorLine name={post.author.name} tier={post.author.tier} date={post.created_at} edited={post.edited_at !== null} />
        <p className="flex gap-2 text-xs font-semibold uppercase tracking-wide text-gray-500">
          {post.pinned && <span>Pinned</span>}
          {post.locked && <span>Locked</span>}
        </p>
      </div>
      <h3 className="mt-3 text-lg font-bold text-gray-900">
        <Link to={`/community/${encodeURIComponent(post.id)}`} className="inline-flex min-h-11 items-center hover:text-brand-700">
          {post.title}
        </Link>
      </h3>
      <LinkedText text={post.content.length > 400 ? `${post.content.slice(0, 399)}…` : post.content} className="mt-2 text-gray-700" />
      <div className="mt-3 flex items-center gap-4 text-sm text-gray-600">
        <LikeButton postId={post.id} liked={post.liked_by_me} count={post.likes_count} canLike={canLike} />
        <Link
          to={`/community/${encodeURIComponent(post.id)}`}
          className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600"
        >
          {post.replies_count} replies
        </Link>
      </div>
    </Card>
  );
}

/** Bronze and above start discussions here; everyone else sees why they cannot, and how to. */
function Composer({ feed }: { feed: FeedResponse }) {
  const refused = useActionData<typeof action>();
  const busy = useNavigation().formData?.get('intent') === 'post';
  const errors = refused && !refused.ok ? refused.fieldErrors : {};
  if (!feed.rights.can_post) {
    return (
      <Card className="bg-gold-100" data-testid="participation">
        <p className="text-gray-900">{feed.rights.reason}</p>
        <ButtonLink to="/pricing" size="sm" className="mt-3">
          View Membership Plans
        </ButtonLink>
      </Card>
    );
  }
  return (
    <Card as="section" aria-labelledby="new-discussion">
      <h2 id="new-discussion" className="text-lg font-bold text-gray-900">
        Start a discussion{feed.space === 'gold' ? ' in the Gold Lounge' : ''}
      </h2>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="post" />
        <input type="hidden" name="space" value={feed.space} />
        {refused && !refused.ok && refused.formError && !Object.keys(errors).length && (
          <p role="alert" className="text-sm text-red-700">
            {refused.formError}
          </p>
        )}
        <Input label="Title" name="title" required maxLength={TEXT_MAX.postTitle} compact error={errors.title} />
        <Textarea label="Message" name="body" required rows={4} maxLength={TEXT_MAX.postBody} compact error={errors.body} />
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Posting...' : 'Post'}
        </Button>
      </Form>
    </Card>
  );
}

function Tabs({ feed }: { feed: FeedResponse }) {
  const tab = (active: boolean) =>
    `inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold ${active ? 'bg-brand-800 text-white' : 'bg-gray-100 text-gray-700 hover:bg-gray-200'}`;
  const to = (changes: Record<string, string>) => `?${new URLSearchParams({ space: feed.space, sort: feed.sort, ...changes })}`;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="Spaces" className="flex gap-2">
        <Link
          to={to({ space: 'general', page: '1' })}
          className={tab(feed.space === 'general')}
          aria-current={feed.space === 'general' ? 'page' : undefined}
        >
          All members
        </Link>
        {feed.rights.can_read_gold && (
          <Link
            to={to({ space: 'gold', page: '1' })}
            className={tab(feed.space === 'gold')}
            aria-current={feed.space === 'gold' ? 'page' : undefined}
          >
            Gold Lounge
          </Link>
        )}
      </nav>
      <nav aria-label="Order" className="flex gap-2">
        <Link
          to={to({ sort: 'newest', page: '1' })}
          className={tab(feed.sort === 'newest')}
          aria-current={feed.sort === 'newest' ? 'page' : undefined}
        >
          Newest
        </Link>
        <Link
          to={to({ sort: 'top', page: '1' })}
          className={tab(feed.sort === 'top')}
          aria-current={feed.sort === 'top' ? 'page' : undefined}
        >
          Top
        </Link>
      </nav>
    </div>
  );
}

/** The query that shows this feed from its first page: space, order and search. */
const feedParams = (feed: FeedResponse): Record<string, string> => ({
  space: feed.space,
  sort: feed.sort,
  ...(feed.q ? { q: feed.q } : {}),
});

/** 'Newest' back to the first page and 'Older' to the next: plain links, so paging works without JavaScript. */
function PageLinks({ newest, older }: { newest: string | null; older: string | null }) {
  if (!newest && !older) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm font-semibold">
      {newest ? (
        <Link to={newest} className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600">
          ← Newest
        </Link>
      ) : (
        <span />
      )}
      {older ? (
        <Link to={older} className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600" rel="next">
          Older →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function Feed({
  feed,
  notice,
  numbers,
}: {
  feed: FeedResponse & { firstPage: boolean };
  notice: string | null;
  numbers: SiteNumbers | null;
}) {
  return (
    <>
      <Header
        line={
          feed.rights.can_post
            ? 'Ask questions, share wins and learn from agents across the country.'
            : 'Read the discussions of our members.'
        }
      />
      <Stats discussions={feed.total} numbers={numbers} />
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
        {notice && (
          <p role="alert" className="rounded-xl bg-gold-100 px-4 py-3 text-gray-900">
            {notice}
          </p>
        )}
        <Composer feed={feed} />
        <Tabs feed={feed} />
        <SearchForm id="community-search" name="q" label="Search discussions" defaultValue={feed.q ?? ''} keep={{ space: feed.space }} />
        <h2 className="text-2xl font-bold text-gray-900">
          {feed.q ? `Discussions matching “${feed.q}”` : feed.space === 'gold' ? 'Gold Lounge' : 'Recent Discussions'}
        </h2>
        {feed.posts.length === 0 ? (
          <p className="py-12 text-center text-gray-500">No discussions found</p>
        ) : (
          <div className="space-y-4">
            {feed.posts.map((post) => (
              <FeedCard key={post.id} post={post} canLike={feed.rights.can_like} />
            ))}
          </div>
        )}
        <PageLinks
          newest={feed.firstPage ? null : `?${new URLSearchParams(feedParams(feed))}`}
          older={feed.next_cursor ? `?${new URLSearchParams({ ...feedParams(feed), before: feed.next_cursor })}` : null}
        />
      </div>
    </>
  );
}

export default function CommunityPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'preview') {
    const { posts, next, firstPage, discussions, numbers } = loaderData;
    return <Preview posts={posts} next={next} firstPage={firstPage} discussions={discussions} numbers={numbers} />;
  }
  return <Feed feed={loaderData.feed} notice={loaderData.notice} numbers={loaderData.numbers} />;
}
