import { Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { Portrait } from '../../components/ui/portrait.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';
import type { PlainPageHandle } from '../../lib/plain-page.tsx';
import { orFallback, pageContent, pageServices } from '../../lib/page-context.ts';
import type { SiteNumbers } from '../../../common/stats.contract.ts';
import type { Route } from './+types/about';
import { buttonClass } from '../../components/ui/button.tsx';

// Read, not used: a visitor's copy runs without the app (docs/decisions/027).
export const handle = { plainForVisitors: true } satisfies PlainPageHandle;

export const meta = () =>
  pageMeta({ title: 'About', description: `About ${BRAND_NAME}: our mission, who we serve and our core values.`, path: '/about' });

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const [mission, numbers, photos] = await Promise.all([
    pageContent(services, 'about_mission', 'the mission text'),
    orFallback(services.stats.siteNumbers(), null, 'the site numbers'),
    pageContent(services, 'site_photos', 'the photos'),
  ]);
  return { mission, numbers, photos };
}

const ECOSYSTEM = [
  ['Video Courses', 'Self-paced courses with progress tracking, certificates and lifetime access.'],
  ['Daily & Weekly Tips', 'Bite-sized, practical advice you can use before your next appointment.'],
  ['Live Coaching', 'Live and group coaching sessions with goal tracking and reminders.'],
  ['Private Community', 'A community of agents and brokers who share wins, scripts and support.'],
  ['Coaching Podcast', 'Weekly episodes, streaming or downloaded for offline listening.'],
  ['Resources Library', 'Downloadable tools, templates, workbooks and market reports.'],
];

const AUDIENCES = [
  ['New Agents', 'A clear plan for your first 90 days and your first closings.'],
  ['Experienced Agents', 'Advanced listing, negotiation and marketing skills to break through your plateau.'],
  ['Team Leaders & Brokers', 'Systems for recruiting, coaching and growing a profitable team.'],
];

const VALUES = [
  ['Excellence', 'We teach what works in today’s market, from people who do it every day.'],
  ['Community', 'Agents grow faster together: we share what we know and celebrate each other’s wins.'],
  ['Growth', 'Every lesson, tip and session is built to move your business forward.'],
];

/** The track record: the site's numbers (staff's copy or the real counts), each only when there is one. */
function trackRecord(numbers: SiteNumbers | null): [string, string][] {
  if (!numbers) return [];
  const rows: [string | null, string][] = [
    [numbers.members, 'Active members'],
    [numbers.courses, 'Expert courses'],
    [numbers.rating, 'App rating'],
    [numbers.years, 'Years in lending and real estate'],
  ];
  return rows.filter((row): row is [string, string] => row[0] !== null);
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { mission } = loaderData;
  return (
    <>
      <PageHeader title={`About ${BRAND_NAME}`} subtitle="Coaching and training for real estate professionals, from your pocket." />
      <section className="mx-auto max-w-4xl px-4 py-14">
        <EditableText
          section="about_mission"
          field="title"
          value={mission.title}
          as="h2"
          className="text-3xl font-extrabold text-gray-900"
        />
        <EditableText
          section="about_mission"
          field="content"
          value={mission.content}
          as="p"
          className="mt-4 whitespace-pre-line text-lg text-gray-700"
        />
        <div className="mt-6 flex items-center gap-4 rounded-2xl bg-brand-50 p-5">
          <Portrait name={mission.founder_name} src={loaderData.photos.founder_photo} size={72} />
          <div>
            <EditableText
              section="about_mission"
              field="founder_name"
              value={mission.founder_name}
              as="p"
              className="font-bold text-brand-900"
            />
            <EditableText
              section="about_mission"
              field="founder_title"
              value={mission.founder_title}
              as="p"
              className="text-sm text-gray-700"
            />
          </div>
        </div>
      </section>

      <section className="bg-gray-50 px-4 py-14">
        <div className="mx-auto max-w-6xl">
          <h2 className="text-center text-3xl font-extrabold text-gray-900">The {BRAND_NAME} Ecosystem</h2>
          <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {ECOSYSTEM.map(([title, text]) => (
              <article key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
                <h3 className="font-bold text-gray-900">{title}</h3>
                <p className="mt-2 text-gray-600">{text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-14">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Who We Serve</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {AUDIENCES.map(([title, text]) => (
            <article key={title} className="rounded-2xl border border-gray-200 p-6">
              <h3 className="font-bold text-gray-900">{title}</h3>
              <p className="mt-2 text-gray-600">{text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="bg-gray-50 px-4 py-14">
        <div className="mx-auto max-w-6xl">
          <h2 className="text-center text-3xl font-extrabold text-gray-900">Our Core Values</h2>
          <div className="mt-8 grid gap-6 md:grid-cols-3">
            {VALUES.map(([title, text]) => (
              <article key={title} className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-gray-200">
                <h3 className="text-xl font-bold text-brand-800">{title}</h3>
                <p className="mt-2 text-gray-600">{text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-5xl px-4 py-14">
        <h2 className="text-center text-3xl font-extrabold text-gray-900">Our Track Record</h2>
        <dl className="mt-8 grid grid-cols-2 gap-6 text-center md:grid-cols-4">
          {trackRecord(loaderData.numbers).map(([value, label]) => (
            <div key={label}>
              <dt className="sr-only">{label}</dt>
              <dd className="text-3xl font-extrabold text-brand-800">{value}</dd>
              <dd className="text-sm text-gray-600">{label}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-12 flex flex-wrap justify-center gap-3">
          <Link to="/signup" className={buttonClass()}>
            Get Started Today
          </Link>
          <Link to="/pricing" className={buttonClass({ variant: 'outline' })}>
            View Pricing
          </Link>
        </div>
      </section>
    </>
  );
}
