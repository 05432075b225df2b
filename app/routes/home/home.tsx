import { Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { HOME_PODCAST_EPISODES } from '../../../common/limits.ts';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { EpisodeCard } from '../../components/podcast/episode-card.tsx';
import { PlanCards } from '../../components/pricing/plan-cards.tsx';
import { Portrait } from '../../components/ui/portrait.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { buttonClass, ButtonLink } from '../../components/ui/button.tsx';
import { pageMeta } from '../../lib/meta.ts';
import type { PlainPageHandle } from '../../lib/plain-page.tsx';
import { orFallback, pageContent, pageServices } from '../../lib/page-context.ts';
import { FIXED_FEATURES, HOME_FAQS, TESTIMONIALS, WITH_POINTS, WITHOUT_POINTS } from '../../components/home/home-content.ts';
import type { Route } from './+types/home';
import { Card, cardClass } from '../../components/ui/card.tsx';

// A visitor's home page needs no app: its FAQ, menu and install steps work with the page's small script.
export const handle = { plainForVisitors: true } satisfies PlainPageHandle;

export const meta = () =>
  pageMeta({
    title: BRAND_NAME,
    description: 'Expert-led courses, coaching, and community designed for ambitious real estate professionals.',
    path: '/',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const [hero, features, numbers, episodes, photos] = await Promise.all([
    pageContent(services, 'homepage_hero', 'the home hero'),
    pageContent(services, 'homepage_features', 'the home features'),
    orFallback(services.stats.siteNumbers(), null, 'the site numbers'),
    orFallback(services.podcast.list(), [], 'podcast episodes'),
    pageContent(services, 'site_photos', 'the photos'),
  ]);
  return { hero, features, numbers, episodes: episodes.slice(0, HOME_PODCAST_EPISODES), photos };
}

/** One side of the problem/solution comparison (SPEC 2 Home, section 3). */
function PointList({ title, points, mark, tone }: { title: string; points: string[]; mark: string; tone: 'with' | 'without' }) {
  return (
    <div className={`rounded-2xl bg-white p-6 ${tone === 'with' ? 'ring-2 ring-gold-400' : 'ring-1 ring-gray-200'}`}>
      <h3 className="text-lg font-bold text-gray-900">{title}</h3>
      <ul className="mt-4 space-y-3 text-gray-700">
        {points.map((point) => (
          <li key={point} className="flex gap-2">
            <span className={tone === 'with' ? 'text-green-700' : 'text-red-600'} aria-hidden="true">
              {mark}
            </span>
            {point}
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { hero, features } = loaderData;
  const { numbers, episodes } = loaderData;
  // The same numbers as every other page: staff's copy, or the real counts (none shown as '0+').
  const featureCards = [
    { field: 1, title: features.feature1_title, description: features.feature1_desc },
    { field: 2, title: features.feature2_title, description: features.feature2_desc },
    { field: 3, title: features.feature3_title, description: features.feature3_desc },
  ];

  return (
    <>
      {/* 1. Hero */}
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-16 text-white sm:py-24">
        <div className="mx-auto max-w-4xl text-center">
          <EditableText
            section="homepage_hero"
            field="headline"
            value={hero.headline}
            as="h1"
            className="text-4xl font-extrabold tracking-tight sm:text-6xl"
          />
          <EditableText
            section="homepage_hero"
            field="subheadline"
            value={hero.subheadline}
            as="p"
            className="mx-auto mt-6 max-w-2xl text-lg text-gold-100"
          />
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <ButtonLink to="/signup" variant="gold">
              <EditableText section="homepage_hero" field="cta_text" value={hero.cta_text} />
            </ButtonLink>
            <ButtonLink to="/courses" variant="outlineLight">
              Browse Courses
            </ButtonLink>
          </div>
          {numbers?.members && (
            <p className="mt-8 text-sm font-semibold text-gold-300">{`Trusted by ${numbers.members} Real Estate Professionals`}</p>
          )}
          <ul className="mt-4 flex flex-wrap justify-center gap-3 text-sm" aria-label="Trust badges">
            {numbers?.rating && <li className="rounded-full bg-white/10 px-4 py-2">{`★ ${numbers.rating} App Rating`}</li>}
            {numbers?.members && (
              <li className="rounded-full bg-white/10 px-4 py-2" data-testid="stat-members">
                {`${numbers.members} Active Members`}
              </li>
            )}
            {numbers?.courses && (
              <li className="rounded-full bg-white/10 px-4 py-2" data-testid="stat-courses">
                {`${numbers.courses} Courses`}
              </li>
            )}
          </ul>
        </div>
      </section>

      {/* 2. Testimonials */}
      <section className="mx-auto max-w-6xl px-4 py-16">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Real Agents, Real Results</h2>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((testimonial) => (
            <figure key={testimonial.name} className={cardClass('flex flex-col p-6')}>
              <p className="text-sm font-bold text-gold-600">{testimonial.result}</p>
              <blockquote className="mt-3 flex-1 text-gray-700">“{testimonial.quote}”</blockquote>
              <figcaption className="mt-4 flex items-center gap-3">
                <Portrait name={testimonial.name} src={loaderData.photos[testimonial.photo]} size={48} />
                <span>
                  <span className="block font-semibold text-gray-900">{testimonial.name}</span>
                  <span className="block text-sm text-gray-500">{testimonial.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </section>

      {/* 3. Problem / solution */}
      <section className="bg-gray-50 px-4 py-16">
        <div className="mx-auto max-w-5xl">
          <h2 className="text-center text-3xl font-extrabold text-gray-900">Stop Guessing. Start Growing.</h2>
          <div className="mt-10 grid gap-6 md:grid-cols-2">
            <PointList title={`Without ${BRAND_NAME}`} points={WITHOUT_POINTS} mark="✗" tone="without" />
            <PointList title={`With ${BRAND_NAME}`} points={WITH_POINTS} mark="✓" tone="with" />
          </div>
          <div className="mt-10 text-center">
            <ButtonLink to="/signup">Start Your Transformation Today</ButtonLink>
          </div>
        </div>
      </section>

      {/* 4. Features */}
      <section className="mx-auto max-w-6xl px-4 py-16">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Everything You Need to Succeed</h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {featureCards.map((card) => (
            <Card as="article" key={card.field} className="p-6">
              <EditableText
                section="homepage_features"
                field={`feature${card.field}_title`}
                value={card.title}
                as="h3"
                className="text-lg font-bold text-gray-900"
              />
              <EditableText
                section="homepage_features"
                field={`feature${card.field}_desc`}
                value={card.description}
                as="p"
                className="mt-2 text-gray-600"
              />
            </Card>
          ))}
          {FIXED_FEATURES.map((card) => (
            <Card as="article" key={card.title} className="p-6">
              <h3 className="text-lg font-bold text-gray-900">{card.title}</h3>
              <p className="mt-2 text-gray-600">{card.description}</p>
            </Card>
          ))}
        </div>
        <div className="mt-10 text-center">
          <ButtonLink to="/courses" variant="outline">
            Explore Courses
          </ButtonLink>
        </div>
      </section>

      {/* 5. Latest podcast episodes, only when there are any */}
      {episodes.length > 0 && (
        <section className="bg-gray-50 px-4 py-16" data-testid="latest-episodes">
          <div className="mx-auto max-w-6xl">
            <h2 className="text-center text-3xl font-extrabold text-gray-900">Latest Podcast Episodes</h2>
            <div className="mt-10 grid gap-6 md:grid-cols-3">
              {episodes.map((episode) => (
                <EpisodeCard key={episode.id} episode={episode} line={`Episode ${episode.episode} • ${episode.duration}`} />
              ))}
            </div>
            <div className="mt-10 text-center">
              <ButtonLink to="/podcast">View All Episodes</ButtonLink>
            </div>
          </div>
        </section>
      )}

      {/* 6. Pricing preview */}
      <section className="mx-auto max-w-6xl px-4 py-16">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Simple, Transparent Pricing</h2>
        <p className="mt-3 text-center text-gray-600">Start free. Upgrade when you are ready. Cancel anytime.</p>
        <div className="mt-10">
          <PlanCards period="monthly" buttonTarget="/pricing" />
        </div>
        <div className="mt-8 text-center">
          <Link to="/pricing" className="inline-block py-3 font-semibold text-brand-800 underline hover:text-brand-600">
            Compare all plans and features
          </Link>
        </div>
      </section>

      {/* 7. FAQ */}
      <section id="faq" className="mx-auto max-w-3xl scroll-mt-20 px-4 pb-16">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Frequently Asked Questions</h2>
        <Accordion className="mt-8" items={HOME_FAQS.map((faq) => ({ key: faq.q, header: faq.q, body: <p>{faq.a}</p> }))} />
      </section>

      {/* 8. Final call to action */}
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-16 text-center text-white">
        <h2 className="text-3xl font-extrabold">Ready to Transform Your Career?</h2>
        <p className="mx-auto mt-3 max-w-2xl text-gold-100">
          Join thousands of real estate professionals learning, growing and closing more deals with {BRAND_NAME}.
        </p>
        <Link to="/signup" className={buttonClass({ variant: 'gold', className: 'mt-8' })}>
          Get Started Today Today
        </Link>
      </section>
    </>
  );
}
