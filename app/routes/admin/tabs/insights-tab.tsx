import { Form } from 'react-router';
import { formatDate, formatMoney } from '../../../../common/format.ts';
import {
  InsightsQuery,
  RevenueQuery,
  type EngagementFigure,
  type Revenue,
  type RevenueFigure,
} from '../../../../common/insights.contract.ts';
import { INSIGHT_MONTHS, INSIGHT_WEEKS } from '../../../../common/insight-limits.ts';
import { mayEnterStaffArea } from '../../../../common/policies.ts';
import { BarChart } from '../../../components/admin/bar-chart.tsx';
import { ChurnTable, CohortTable, shortMonth, SourcesTable } from '../../../components/admin/insights-tables.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/field.tsx';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/insights-tab';

// Insights (issue 34, part 1): for owners, revenue by month (its movements, churn per tier, where it
// comes from); for owners and editors, retention cohorts (the paying share the owners' only) and what
// members do, week by week, each course's funnel and who went quiet. Each figure a chart or table
// with its numbers as text, and its CSV. Weeks and months are New York's (the business's zone).

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const searched = Object.fromEntries(new URL(request.url).searchParams);
  const asked = InsightsQuery.safeParse(searched);
  const weeks = asked.success ? asked.data.weeks : INSIGHT_WEEKS.default;
  const askedMonths = RevenueQuery.safeParse(searched);
  const months = askedMonths.success ? askedMonths.data.months : INSIGHT_MONTHS.default;
  // The revenue half is the owners' (the billing area's); retention is everyone's, its paying share the owners'.
  const [figures, revenue, retention] = await Promise.all([
    services.insights.engagement(viewer, { weeks }),
    mayEnterStaffArea(viewer, 'billing') ? services.insights.revenue(viewer, { months }) : null,
    services.insights.retention(viewer, { months }),
  ]);
  return { weeks, months, figures, revenue, retention };
}

const WEEK_CHOICES = [4, 12, 26, 52].map((weeks) => ({ value: String(weeks), label: `The last ${weeks} weeks` }));
const MONTH_CHOICES = [3, 6, 12, 24].map((months) => ({ value: String(months), label: `The last ${months} months` }));
const shortWeek = (week: string) => formatDate(week).replace(/, \d{4}$/, '');

type CsvOf =
  | { figure: EngagementFigure; weeks: number }
  | { figure: RevenueFigure; months: number; revenue: true }
  | { figure: 'retention'; months: number };

function Csv({ label, ...of }: CsvOf & { label: string }) {
  const href =
    'revenue' in of
      ? `/api/admin/insights/revenue/${of.figure}.csv?months=${of.months}`
      : 'weeks' in of
        ? `/api/admin/insights/engagement/${of.figure}.csv?weeks=${of.weeks}`
        : `/api/admin/insights/retention.csv?months=${of.months}`;
  return (
    <a href={href} className="mr-4 inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline">
      {label} as CSV
    </a>
  );
}

/** Revenue by month (owners): the recurring revenue, what moved it, paying plans, trials and refunds, churn per tier and its sources. */
function RevenueSection({ revenue }: { revenue: Revenue }) {
  const cell = 'py-2 pr-2';
  const months = revenue.months.length;
  return (
    <div className="space-y-4">
      <h3 className="text-lg font-bold text-gray-900">Revenue (the last {months} months, New York time)</h3>
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <BarChart
            title="Monthly recurring revenue at each month's end ($)"
            items={revenue.mrr.map((row) => ({ label: shortMonth(row.month), value: Math.round(row.mrr_cents / 100) }))}
          />
          <Csv figure="mrr" months={months} revenue label="Recurring revenue and paying plans" />
        </div>
        <div>
          <BarChart
            title="Trials started, and those that became paying"
            items={revenue.trials.map((row) => ({ label: `${shortMonth(row.month)} (${row.converted} paid)`, value: row.started }))}
          />
          <Csv figure="trials" months={months} revenue label="Trials" />
        </div>
      </div>
      <div className="overflow-x-auto rounded-2xl bg-white p-4 sm:p-6">
        <table className="w-full min-w-[640px] text-left text-sm">
          <caption className="mb-2 text-left font-semibold text-gray-900">What moved the recurring revenue each month</caption>
          <thead className="text-gray-700">
            <tr>
              {['Month', 'New', 'Expansion', 'Contraction', 'Churned', 'Reactivated', 'Members lost', 'Paying (B/S/G)', 'Refunded'].map(
                (heading) => (
                  <th key={heading} scope="col" className={`${cell} font-semibold`}>
                    {heading}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {revenue.movements.map((row, index) => {
              const paying = revenue.mrr[index]!.paying;
              const refunds = revenue.refunds[index]!;
              return (
                <tr key={row.month} className="border-t border-gray-200">
                  <th scope="row" className={`${cell} font-normal`}>
                    {shortMonth(row.month)}
                  </th>
                  <td className={cell}>{formatMoney(row.new_cents)}</td>
                  <td className={cell}>{formatMoney(row.expansion_cents)}</td>
                  <td className={cell}>{formatMoney(row.contraction_cents)}</td>
                  <td className={cell}>{formatMoney(row.churned_cents)}</td>
                  <td className={cell}>{formatMoney(row.reactivated_cents)}</td>
                  <td className={cell}>{row.churned_members}</td>
                  <td className={cell}>
                    {paying.bronze}/{paying.silver}/{paying.gold}
                  </td>
                  <td className={cell}>{refunds.refunds > 0 ? `${formatMoney(refunds.refunded_cents)} (${refunds.refunds})` : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <Csv figure="movements" months={months} revenue label="Revenue movements" />
        <Csv figure="refunds" months={months} revenue label="Refunds" />
      </div>
      <ChurnTable churn={revenue.churn} csv={<Csv figure="churn" months={months} revenue label="Churn per tier" />} />
      <SourcesTable
        sources={revenue.sources}
        csv={<Csv figure="sources" months={months} revenue label="Revenue by offer and team seats" />}
      />
    </div>
  );
}

export default function InsightsTab({ loaderData }: Route.ComponentProps) {
  const { weeks, months, figures, revenue, retention } = loaderData;
  const rate = (attended: number, rsvps: number) => (rsvps === 0 ? 0 : Math.round((attended / rsvps) * 100));
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold text-gray-900">Insights</h2>
          <p className="text-sm text-gray-600">
            Weeks start on Monday and months on the 1st, New York time; the current week and month are the last, so far.
          </p>
        </div>
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <Select compact label="Period" name="weeks" defaultValue={String(weeks)} options={WEEK_CHOICES} />
          <Select compact label="Months" name="months" defaultValue={String(months)} options={MONTH_CHOICES} />
          <Button type="submit" size="sm" variant="outline" className="min-h-11">
            Show
          </Button>
        </Form>
      </div>

      {revenue && <RevenueSection revenue={revenue} />}

      <h3 className="text-lg font-bold text-gray-900">Retention</h3>
      <CohortTable retention={retention} csv={<Csv figure="retention" months={months} label="Retention cohorts" />} />

      <h3 className="text-lg font-bold text-gray-900">Engagement</h3>
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
