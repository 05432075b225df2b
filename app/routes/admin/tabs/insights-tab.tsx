import { Form } from 'react-router';
import { formatDate } from '../../../../common/format.ts';
import { INSIGHT_WEEKS, InsightsQuery, type EngagementFigure } from '../../../../common/insights.contract.ts';
import { BarChart } from '../../../components/admin/bar-chart.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/field.tsx';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/insights-tab';

// Insights (issue 34, part 1), the engagement half, for owners and editors: what members do, week by
// week, each course's funnel and who went quiet; each figure a chart with its numbers as text, and
// its CSV.

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const asked = InsightsQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const weeks = asked.success ? asked.data.weeks : INSIGHT_WEEKS.default;
  return { weeks, figures: await services.insights.engagement(viewer, { weeks }) };
}

const WEEK_CHOICES = [4, 12, 26, 52].map((weeks) => ({ value: String(weeks), label: `The last ${weeks} weeks` }));
const shortWeek = (week: string) => formatDate(week).replace(/, \d{4}$/, '');

function Csv({ figure, weeks, label }: { figure: EngagementFigure; weeks: number; label: string }) {
  return (
    <a
      href={`/api/admin/insights/engagement/${figure}.csv?weeks=${weeks}`}
      className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline"
    >
      {label} as CSV
    </a>
  );
}

export default function InsightsTab({ loaderData }: Route.ComponentProps) {
  const { weeks, figures } = loaderData;
  const rate = (attended: number, rsvps: number) => (rsvps === 0 ? 0 : Math.round((attended / rsvps) * 100));
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold text-gray-900">Insights</h2>
          <p className="text-sm text-gray-600">Weeks start on Monday (UTC); the current week is the last.</p>
        </div>
        <Form method="get" className="flex items-end gap-2">
          <Select compact label="Period" name="weeks" defaultValue={String(weeks)} options={WEEK_CHOICES} />
          <Button type="submit" size="sm" variant="outline" className="min-h-11">
            Show
          </Button>
        </Form>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <BarChart
            title="Members active each week"
            items={figures.active_members.map((row) => ({ label: shortWeek(row.week), value: row.members }))}
          />
          <Csv figure="active-members" weeks={weeks} label="Members active" />
        </div>
        <div>
          <BarChart
            title="Lessons completed each week"
            items={figures.lessons_completed.map((row) => ({ label: shortWeek(row.week), value: row.lessons }))}
          />
          <Csv figure="lessons-completed" weeks={weeks} label="Lessons completed" />
        </div>
        <div>
          <BarChart
            title="Community discussions and replies each week"
            items={figures.community.map((row) => ({ label: shortWeek(row.week), value: row.discussions + row.replies }))}
          />
          <Csv figure="community" weeks={weeks} label="Discussions and replies" />
        </div>
        <div>
          <BarChart
            title="Live sessions: share of RSVPs who joined (%)"
            items={figures.live_sessions.map((row) => ({ label: shortWeek(row.week), value: rate(row.attended, row.rsvps) }))}
          />
          <Csv figure="live-sessions" weeks={weeks} label="Live sessions" />
        </div>
      </div>

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Members gone quiet</h3>
        <p className="mt-1 text-gray-800" data-testid="inactive">
          Of {figures.inactive.members} members, {figures.inactive.days_14} have not used the site in 14 days and {figures.inactive.days_30}{' '}
          in 30 days.
        </p>
        <Csv figure="inactive" weeks={weeks} label="Members gone quiet" />
      </div>

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Each course’s funnel</h3>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[560px] text-left text-sm">
            <caption className="sr-only">Members of each course by how far they got</caption>
            <thead className="text-gray-700">
              <tr>
                {['Course', 'Started', '25%', '50%', '75%', 'Finished', 'Certificate'].map((heading) => (
                  <th key={heading} scope="col" className="py-2 pr-2 font-semibold">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {figures.course_funnel.map((course) => (
                <tr key={course.course_id} className="border-t border-gray-200">
                  <th scope="row" className="py-2 pr-2 font-normal">
                    {course.title}
                  </th>
                  {[course.started, course.quarter, course.half, course.three_quarters, course.finished, course.certified].map(
                    (value, index) => (
                      <td key={index} className="py-2 pr-2">
                        {value}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Csv figure="course-funnel" weeks={weeks} label="Course funnel" />
      </div>
    </section>
  );
}
