import type { ReactNode } from 'react';
import { formatMoney } from '../../../common/format.ts';
import type { Retention, Revenue } from '../../../common/insights.contract.ts';

// The Insights tab's figures that read best as tables (each is its own text alternative): the
// retention cohorts, churn per tier and where the recurring revenue comes from.

const cell = 'py-2 pr-3 align-top';

/** 'Mar 26' for '2026-03'. */
export const shortMonth = (month: string) =>
  new Date(`${month}-01T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** A whole percent of a share, '—' of no one. */
const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);

function Table({ caption, headings, children, footer }: { caption: string; headings: string[]; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-2xl bg-white p-4 sm:p-6">
      <table className="w-full min-w-[560px] text-left text-sm">
        <caption className="mb-2 text-left font-semibold text-gray-900">{caption}</caption>
        <thead className="text-gray-700">
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className={`${cell} font-semibold`}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {footer}
    </div>
  );
}

/**
 * Members by the month they joined, and for each month since (month 0 is the one they joined in)
 * the share paying at its end (owners) and the share who used the site in it; shaded by that share.
 */
export function CohortTable({ retention, csv }: { retention: Retention; csv: ReactNode }) {
  const columns = retention.cohorts.length;
  const paying = retention.paying_shown;
  return (
    <Table
      caption={`Retention: members by the month they joined, and the share ${paying ? 'paying and ' : ''}active each month since`}
      headings={['Joined', 'Members', ...Array.from({ length: columns }, (_, index) => `Month ${index}`)]}
      footer={csv}
    >
      {retention.cohorts.map((cohort) => (
        <tr key={cohort.month} className="border-t border-gray-200">
          <th scope="row" className={`${cell} font-normal`}>
            {shortMonth(cohort.month)}
          </th>
          <td className={cell}>{cohort.members}</td>
          {Array.from({ length: columns }, (_, index) => {
            const month = cohort.after[index];
            if (!month || cohort.members === 0) return <td key={index} className={cell} />;
            const shade = (paying ? (month.paying ?? 0) : month.active) / cohort.members;
            return (
              <td key={index} className={cell} style={{ backgroundColor: `rgb(16 120 90 / ${(shade * 0.3).toFixed(2)})` }}>
                {paying && <span className="block whitespace-nowrap">{percent(month.paying ?? 0, cohort.members)} paying</span>}
                <span className="block whitespace-nowrap text-gray-700">{percent(month.active, cohort.members)} active</span>
              </td>
            );
          })}
        </tr>
      ))}
    </Table>
  );
}

/** Per tier, each month: the members paying at its start and the share of them whose plan of that tier ended in it. */
export function ChurnTable({ churn, csv }: { churn: Revenue['churn']; csv: ReactNode }) {
  return (
    <Table
      caption="Churn per tier: plans that ended in the month, of those paying at its start"
      headings={['Month', 'Bronze', 'Silver', 'Gold']}
      footer={csv}
    >
      {churn.map((row) => (
        <tr key={row.month} className="border-t border-gray-200">
          <th scope="row" className={`${cell} font-normal`}>
            {shortMonth(row.month)}
          </th>
          {(['bronze', 'silver', 'gold'] as const).map((tier) => (
            <td key={tier} className={cell}>
              {row[tier].paying_at_start === 0
                ? '—'
                : `${percent(row[tier].churned, row[tier].paying_at_start)} (${row[tier].churned} of ${row[tier].paying_at_start})`}
            </td>
          ))}
        </tr>
      ))}
    </Table>
  );
}

/** Each month's recurring revenue by where it comes from: plans bought without an offer, each offer, team seats. */
export function SourcesTable({ sources, csv }: { sources: Revenue['sources']; csv: ReactNode }) {
  // Every offer that brought revenue in the period, in the order of the latest month's.
  const offers = new Map<string, string>();
  for (const row of [...sources].reverse()) {
    for (const offer of row.offers) if (!offers.has(offer.offer_id)) offers.set(offer.offer_id, offer.code ?? 'A removed offer');
  }
  return (
    <Table
      caption="Where the recurring revenue comes from, at each month's end (plan prices)"
      headings={['Month', 'No offer', ...[...offers.values()].map((code) => `Offer ${code}`), 'Team seats']}
      footer={csv}
    >
      {sources.map((row) => (
        <tr key={row.month} className="border-t border-gray-200">
          <th scope="row" className={`${cell} font-normal`}>
            {shortMonth(row.month)}
          </th>
          <td className={cell}>{formatMoney(row.no_offer_cents)}</td>
          {[...offers.keys()].map((id) => {
            const offer = row.offers.find((each) => each.offer_id === id);
            return (
              <td key={id} className={cell}>
                {offer ? `${formatMoney(offer.mrr_cents)} (${offer.subscriptions})` : '—'}
              </td>
            );
          })}
          <td className={cell}>
            {row.teams > 0 ? `${formatMoney(row.team_seats_cents)} (${row.teams} ${row.teams === 1 ? 'team' : 'teams'})` : '—'}
          </td>
        </tr>
      ))}
    </Table>
  );
}
