import { BRAND_NAME } from '../../../common/brand.ts';
import type { CommunityPost } from '../../../common/community.contract.ts';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../../common/format.ts';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/community';

export const meta = () =>
  pageMeta({
    title: 'Community',
    description: `Discussions among real estate agents and brokers in the ${BRAND_NAME} community.`,
    path: '/community',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  return { posts: await orFallback(services.community.list(viewer), [], 'community posts') };
}

function PostCard({ post }: { post: CommunityPost }) {
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

export default function CommunityPage({ loaderData }: Route.ComponentProps) {
  const { posts } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-14 text-center text-white sm:py-20">
        <h1 className="text-3xl font-extrabold sm:text-5xl">{BRAND_NAME} Community</h1>
        <p className="mt-4 text-gold-100">Join our membership to participate</p>
      </section>
      <section className="border-b border-gray-200 bg-white">
        <dl className="mx-auto grid max-w-4xl grid-cols-3 gap-4 px-4 py-6 text-center">
          <div>
            <dt className="sr-only">Members</dt>
            <dd className="font-bold text-brand-800">10,000+ Active Members</dd>
          </div>
          <div>
            <dt className="sr-only">Discussions</dt>
            <dd className="font-bold text-brand-800" data-testid="discussion-count">
              {posts.length} Discussions
            </dd>
          </div>
          <div>
            <dt className="sr-only">Posts per day</dt>
            <dd className="font-bold text-brand-800">50+ Daily Posts</dd>
          </div>
        </dl>
      </section>
      <section className="mx-auto max-w-4xl px-4 py-10">
        <h2 className="text-2xl font-bold text-gray-900">Recent Discussions</h2>
        {posts.length === 0 ? (
          <p className="py-12 text-center text-gray-500">No discussions found</p>
        ) : (
          <div className="mt-6 space-y-4">
            {posts.map((post) => (
              <PostCard key={post.id} post={post} />
            ))}
          </div>
        )}
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
