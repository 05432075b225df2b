import { useEffect } from 'react';
import { Link, redirect, useFetcher } from 'react-router';
import { toast } from '../../lib/toast.tsx';
import { DASHBOARD_MAX_ITEMS } from '../../../common/limits.ts';
import { episodeLine, episodePath } from '../../components/podcast/episode-card.tsx';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { offersUpgrade } from '../../../common/policies.ts';
import { InstallAppButton } from '../../components/app-install/install-app.tsx';
import { TierBadge } from '../../components/catalogue/tier-badge.tsx';
import { CertificateItem, EnrolledCourseItem, LIST_LINK_CLASS, ReplyNoticeItem } from '../../components/dashboard/member-lists.tsx';
import { GoalCard } from '../../components/goals/goal-card.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { attempt } from '../../lib/forms.ts';
import { formatDate } from '../../../common/format.ts';
import { pageMeta } from '../../lib/meta.ts';
import { useRootData } from '../../lib/root-data.ts';
import { memberPageServices, orFallback, pageServices, pageSession, showsDiscussions } from '../../lib/page-context.ts';
import type { Route } from './+types/dashboard';
import { DEFAULT_TIME_ZONE, formatInZone, localDateOf } from '../../../common/time-zones.ts';

export const meta = () => pageMeta({ title: 'Dashboard', description: 'Your RealtyPocket member dashboard.' });

export async function loader({ context, request }: Route.LoaderArgs) {
  // SPEC 4: without a session, /login.
  const { services, viewer, member } = memberPageServices(context);
  if (new URL(request.url).searchParams.get('checkout') === 'success') await welcomeBackFromCheckout(context);
  // The rest loads together; a failure leaves an empty list (SPEC 4 "Dashboard").
  const none = { items: [], next_cursor: null };
  const [
    enrolments,
    certificates,
    learningCounts,
    episodes,
    communityPosts,
    postCount,
    myPosts,
    repliesToMe,
    subscription,
    nextSession,
    goals,
    tip,
    recommended,
    licences,
  ] = await Promise.all([
    orFallback(services.learning.enrolments(viewer), none, 'enrolments'),
    orFallback(services.learning.certificates(viewer), none, 'certificates'),
    orFallback(services.learning.counts(viewer), { enrolments: 0, certificates: 0 }, 'your course counts'),
    orFallback(services.podcast.list(), [], 'podcast episodes'),
    orFallback(services.community.preview(viewer, {}), none, 'community posts'),
    orFallback(services.community.count(viewer), 0, 'the discussion count'),
    orFallback(services.community.myPosts(viewer), [], 'your community posts'),
    orFallback(services.community.repliesToMe(viewer), none, 'replies to your posts'),
    orFallback(services.billing.subscription(viewer), null, 'the subscription'),
    orFallback(services.coaching.nextFor(viewer), null, 'your next coaching session'),
    orFallback(services.goals.list(viewer), [], 'your goals'),
    orFallback(
      services.resources.tipOfTheDay(viewer, localDateOf(new Date(), member.timeZone ?? DEFAULT_TIME_ZONE)),
      null,
      'the tip of the day',
    ),
    orFallback(services.recommendations.forMember(viewer), [], 'your recommendations'),
    orFallback(services.licence.ledger(viewer), [], 'your licences'),
  ]);
  // Only what the page shows travels to the browser: three of each list, and the counts.
  const shown = <T,>(list: T[]) => list.slice(0, DASHBOARD_MAX_ITEMS);
  // Issue: 'Community Highlights' becomes the member's own once they take part.
  const posts = shown(myPosts.length > 0 ? myPosts : communityPosts.items);
  const replies = shown(repliesToMe.items);
  // The page is kept while the discussions it shows hold, not the whole first page of the community:
  // a like or a reply elsewhere leaves it be. Which discussions are listed (and how many) is the
  // community's list, named with these; a reply to the member's posts changes their own data.
  showsDiscussions(context, [...posts.map((post) => post.id), ...replies.map((reply) => reply.post_id)]);
  return {
    profile: services.auth.me(viewer),
    enrolments: shown(enrolments.items),
    certificates: certificates.items,
    episodes: shown(episodes).map(({ id, thumbnail, season, episode, duration, title, spotify_url }) => ({
      id,
      thumbnail,
      season,
      episode,
      duration,
      title,
      spotify_url,
    })),
    posts,
    postsAreMine: myPosts.length > 0,
    repliesToMe: replies,
    moreReplies: repliesToMe.items.length > DASHBOARD_MAX_ITEMS || repliesToMe.next_cursor !== null,
    counts: { ...learningCounts, episodes: episodes.length, posts: postCount },
    subscription,
    nextSession,
    goals: shown(goals),
    recommended,
    tip: tip && { title: tip.title, text: tip.description },
    moreGoals: goals.length > DASHBOARD_MAX_ITEMS,
    // The CE ledger's card, once the member recorded a licence.
    licences: licences.map(({ id, state_name, renews_on, hours_missing, on_track, requirement }) => ({
      id,
      state_name,
      renews_on,
      hours_missing,
      on_track,
      known: requirement !== null,
    })),
    timeZone: member.timeZone ?? DEFAULT_TIME_ZONE,
  };
}

/**
 * Back from paying: Stripe's events may still be on their way, so the subscription is read from
 * Stripe now; then the dashboard loads again (its own address) with the plan the member has.
 */
async function welcomeBackFromCheckout(context: Route.LoaderArgs['context']): Promise<never> {
  const { services, viewer } = pageServices(context);
  await orFallback(services.billing.refresh(viewer), undefined, 'the subscription from Stripe');
  const subscription = await orFallback(services.billing.subscription(viewer), null, 'the subscription');
  pageSession(context).flash(
    subscription?.gives_access && subscription.tier
      ? { type: 'success', message: `Payment received. Welcome to ${TIER_LABEL[subscription.tier]} membership!` }
      : { type: 'info', message: 'Thank you! Your payment is being confirmed; your plan updates in a moment.' },
  );
  throw redirect('/dashboard');
}

// 'Resend' on the banner that asks to confirm the email address.
export async function action({ context }: Route.ActionArgs) {
  const { services, viewer } = pageServices(context);
  const sent = await attempt(() => services.account.resendVerification(viewer));
  if (!sent.ok) return sent.refusal;
  return { ok: true as const, message: sent.value.message };
}

/** Until the member confirms their email address: a banner with 'Resend'. */
function VerifyEmailBanner({ email }: { email: string }) {
  const fetcher = useFetcher<typeof action>();
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== 'idle') return;
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError ?? 'Could not send the link. Please try again.');
  }, [fetcher.data, fetcher.state]);
  return (
    <div
      role="status"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-gold-100 px-4 py-3 text-sm text-gray-900"
    >
      <p>Please confirm your email address: we sent a link to {email}.</p>
      <fetcher.Form method="post">
        <button
          type="submit"
          disabled={fetcher.state !== 'idle'}
          className="font-semibold text-brand-800 underline hover:text-brand-600 disabled:opacity-60"
        >
          Resend
        </button>
      </fetcher.Form>
    </div>
  );
}

function Panel({
  title,
  link,
  children,
}: {
  title: string;
  link?: { to: string; label: string; external?: boolean };
  children: React.ReactNode;
}) {
  return (
    <Card as="section">
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-lg font-bold text-gray-900">{title}</h2>
        {link && (
          <Link to={link.to} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600">
            {link.label}
          </Link>
        )}
      </div>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

function StatTile({ label, value }: { label: string; value: number }) {
  return (
    <Card className="p-4 text-center">
      <p className="text-3xl font-extrabold text-brand-800" data-stat={label}>
        {value}
      </p>
      <p className="mt-1 text-sm text-gray-600">{label}</p>
    </Card>
  );
}

const APP_BUTTON = 'rounded-lg border border-gray-600 px-4 py-2 text-sm font-semibold hover:border-gold-400';

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  const mobileApp = useRootData()?.mobileApp;
  const {
    profile,
    enrolments,
    certificates,
    episodes,
    posts,
    postsAreMine,
    repliesToMe,
    moreReplies,
    counts,
    subscription,
    nextSession,
    goals,
    moreGoals,
    tip,
    recommended,
    licences,
    timeZone,
  } = loaderData;
  const isFree = offersUpgrade(profile.membership_tier);
  // A member who has not started anything yet is welcomed, not welcomed back.
  const returning = counts.enrolments > 0 || counts.certificates > 0 || postsAreMine;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">
        {returning ? `Welcome back, ${profile.name}!` : `Welcome, ${profile.name}!`}
      </h1>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <p className="text-gray-600">
          {returning ? 'Here is where you left off.' : 'Here is where to start: pick a course, play an episode or join a discussion.'}
        </p>
        <Link
          to="/account"
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline hover:text-brand-600"
        >
          Account settings
        </Link>
      </div>
      {!profile.email_verified && <VerifyEmailBanner email={profile.email} />}
      {subscription?.status === 'past_due' && (
        <div
          role="alert"
          className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-900"
        >
          <p>Your last payment did not go through. Update your card to keep your {TIER_LABEL[profile.membership_tier]} membership.</p>
          <Link to="/account/billing" className="font-semibold underline">
            Update payment method
          </Link>
        </div>
      )}

      <div className="mt-6 grid gap-4 lg:grid-cols-3">
        <section className="rounded-2xl bg-gradient-to-br from-brand-900 to-brand-700 p-5 text-white shadow lg:col-span-1">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-gold-300">Current Plan</h2>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <TierBadge tier={profile.membership_tier} />
            <span className="text-xl font-bold">{TIER_LABEL[profile.membership_tier]} Membership</span>
          </div>
          {/* SPEC 2: only free members see the upgrade prompt. */}
          {isFree && (
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <span className="rounded-full bg-gold-400 px-3 py-1 text-xs font-bold text-brand-900">Upgrade Available</span>
              <ButtonLink to="/pricing" variant="white" size="sm">
                Upgrade Plan
              </ButtonLink>
            </div>
          )}
          {subscription && (
            <p className="mt-3 text-sm text-gray-200" data-testid="plan-renewal">
              {subscription.cancel_at_period_end ? 'Ends' : 'Renews'} on {formatDate(subscription.current_period_end, 'long')}
            </p>
          )}
          <Link
            to="/account/billing"
            className="mt-4 inline-flex min-h-11 items-center text-sm font-semibold text-gold-300 underline hover:text-gold-200"
          >
            Billing and invoices
          </Link>
        </section>
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-4 lg:col-span-2">
          <StatTile label="Courses Enrolled" value={counts.enrolments} />
          <StatTile label="Certificates Earned" value={counts.certificates} />
          <StatTile label="Podcast Episodes" value={counts.episodes} />
          <StatTile label="Community Posts" value={counts.posts} />
        </div>
      </div>

      <div className="mt-6">
        <Panel title="Live Coaching" link={{ to: '/coaching', label: 'All sessions' }}>
          {nextSession ? (
            <p className="text-gray-700" data-testid="next-session">
              Your next session: <span className="font-semibold text-gray-900">{nextSession.title}</span>,{' '}
              {formatInZone(nextSession.starts_at, timeZone)}.
            </p>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-gray-700">Join a live group session with a coach, and watch the recordings.</p>
              <ButtonLink to="/coaching" size="sm">
                See upcoming sessions
              </ButtonLink>
            </div>
          )}
        </Panel>
      </div>

      {tip && (
        <div className="mt-6">
          <Panel title="Tip of the Day" link={{ to: '/resources', label: 'More tips' }}>
            <div data-testid="tip-of-the-day">
              <p className="font-semibold text-gray-900">{tip.title}</p>
              <p className="mt-1 whitespace-pre-line text-gray-700">{tip.text}</p>
            </div>
          </Panel>
        </div>
      )}

      <div className="mt-6">
        <Panel title="Your Licence" link={{ to: '/licence', label: licences.length > 0 ? 'Open my ledger' : 'Add my licence' }}>
          {licences.length === 0 ? (
            <p className="text-gray-700">Record your licence and see the continuing-education hours you need before it renews.</p>
          ) : (
            <ul className="space-y-2" data-testid="licence-card">
              {licences.map((licence) => (
                <li key={licence.id} className="text-gray-800">
                  <span className="font-semibold">{licence.state_name}</span>, renews {formatDate(licence.renews_on)}:{' '}
                  {!licence.known
                    ? 'see your ledger'
                    : licence.hours_missing === 0
                      ? 'every CE hour done'
                      : `${licence.hours_missing} CE hours to go${licence.on_track ? '' : ', behind'}`}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>

      <div className="mt-6">
        <Panel title="Your Goals" link={{ to: '/goals', label: goals.length > 0 ? 'All goals' : 'Set a goal' }}>
          {goals.length === 0 ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-gray-700">Set a goal, like 20 calls a week, and log your progress here in two taps.</p>
              <ButtonLink to="/goals" size="sm">
                Set a goal
              </ButtonLink>
            </div>
          ) : (
            <ul className="space-y-3">
              {goals.map((goal) => (
                <GoalCard key={goal.id} goal={goal} />
              ))}
              {moreGoals && (
                <li>
                  <Link to="/goals" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline">
                    See all your goals
                  </Link>
                </li>
              )}
            </ul>
          )}
        </Panel>
      </div>

      {recommended.length > 0 && (
        <div className="mt-6">
          <Panel title="Recommended for you">
            <ul className="grid gap-3 sm:grid-cols-2" data-testid="recommendations">
              {recommended.map((item) => (
                <li key={item.course_id}>
                  <Link
                    to={item.href}
                    className="block min-h-11 rounded-xl border border-gray-200 p-4 hover:border-brand-600"
                    data-locked={item.locked || undefined}
                  >
                    <span className="block font-semibold text-gray-900">{item.title}</span>
                    <span className="mt-1 block text-sm text-gray-700">{item.reason}</span>
                    {item.upgrade_to && <TierBadge tier={item.upgrade_to} />}
                  </Link>
                </li>
              ))}
            </ul>
          </Panel>
        </div>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Panel title="Continue Learning" link={{ to: '/courses', label: 'View All Courses' }}>
          {enrolments.length === 0 ? (
            <div className="py-6 text-center">
              <p className="text-gray-600">You haven't enrolled in any courses yet</p>
              <ButtonLink to="/courses" size="sm" className="mt-3">
                Browse Courses
              </ButtonLink>
            </div>
          ) : (
            <>
              <ul className="space-y-4">
                {enrolments.map((course) => (
                  <EnrolledCourseItem key={course.id} course={course} />
                ))}
              </ul>
              {counts.enrolments > enrolments.length && (
                <Link to="/dashboard/courses" className={LIST_LINK_CLASS}>
                  All my courses ({counts.enrolments}) →
                </Link>
              )}
            </>
          )}
        </Panel>

        <Panel title="My Certificates">
          {certificates.length === 0 ? (
            <p className="py-6 text-center text-gray-600">Finish every lesson of a course to earn its certificate.</p>
          ) : (
            <>
              <ul className="space-y-3">
                {certificates.map((certificate) => (
                  <CertificateItem key={certificate.code} certificate={certificate} />
                ))}
              </ul>
              {counts.certificates > certificates.length && (
                <Link to="/dashboard/certificates" className={LIST_LINK_CLASS}>
                  All my certificates ({counts.certificates}) →
                </Link>
              )}
            </>
          )}
        </Panel>

        <Panel title="Recent Podcast Episodes" link={{ to: '/podcast', label: 'View All Episodes' }}>
          <ul className="space-y-4">
            {episodes.map((episode) => (
              <li key={episode.id} className="relative flex gap-3">
                <img
                  src={episode.thumbnail}
                  alt=""
                  width={112}
                  height={63}
                  className="img-skeleton h-16 w-28 shrink-0 rounded-lg object-cover"
                />
                <div className="min-w-0 flex-1">
                  <p className="text-xs text-gray-500">{episodeLine(episode)}</p>
                  <p className="font-semibold text-gray-900">{episode.title}</p>
                  {/* The whole row opens the episode's page, where its player and Spotify link are. */}
                  <Link
                    to={episodePath(episode)}
                    className="mt-1 inline-block text-sm font-semibold text-brand-800 after:absolute after:inset-0 hover:text-brand-600"
                  >
                    Play Episode
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </Panel>

        <Panel title="Community Highlights" link={{ to: '/community', label: 'View Community' }}>
          {postsAreMine && <p className="mb-3 text-sm text-gray-600">Your discussions</p>}
          <ul className="space-y-4">
            {posts.map((post) => (
              <li key={post.id} className="flex gap-3">
                <span className="grid h-10 w-10 shrink-0 place-items-center rounded-full bg-brand-800 font-bold text-gold-400">
                  {post.user_name.charAt(0)}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="text-sm">
                    <span className="font-semibold text-gray-900">{post.user_name}</span>{' '}
                    <span className="text-gray-500">{formatDate(post.created_at)}</span>
                  </p>
                  <Link
                    to={`/community/${encodeURIComponent(post.id)}`}
                    className="inline-flex min-h-11 items-center font-semibold text-gray-900 hover:text-brand-800"
                  >
                    {post.title}
                  </Link>
                  <p className="line-clamp-3 text-sm text-gray-600">{post.content}</p>
                  <p className="mt-1 text-xs text-gray-500">
                    ♥ {post.likes_count} · {post.replies_count} replies
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </Panel>

        {repliesToMe.length > 0 && (
          <Panel title="Replies to your posts" link={{ to: '/community', label: 'View Community' }}>
            <ul className="space-y-3">
              {repliesToMe.map((notice) => (
                <ReplyNoticeItem key={notice.reply_id} notice={notice} />
              ))}
            </ul>
            {moreReplies && (
              <Link to="/dashboard/replies" className={LIST_LINK_CLASS}>
                All replies to your posts →
              </Link>
            )}
          </Panel>
        )}
      </div>

      <section className="mt-6 rounded-2xl bg-gray-900 p-6 text-white sm:flex sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-bold">Get the Mobile App</h2>
          <p className="mt-1 text-sm text-gray-300">Learn on the go: courses, podcast and community in your pocket.</p>
        </div>
        <div className="mt-4 flex gap-3 sm:mt-0">
          <InstallAppButton platform="ios" storeUrl={mobileApp?.ios_url} className={APP_BUTTON}>
            iOS
          </InstallAppButton>
          <InstallAppButton platform="android" storeUrl={mobileApp?.android_url} className={APP_BUTTON}>
            Android
          </InstallAppButton>
        </div>
      </section>
    </div>
  );
}
