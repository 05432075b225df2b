import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { z } from 'zod';
import {
  Moderation,
  PostParams,
  ReplyModeration,
  ReplyParams,
  type ReportView,
  type StaffDiscussion,
} from '../../../../common/community.contract.ts';
import { uuidParam } from '../../../../common/fields.ts';
import { formatDateTime } from '../../../../common/format.ts';
import { AfterQuery, SearchQuery } from '../../../../common/paging.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { SearchForm } from '../../../components/ui/search-form.tsx';
import { attempt, invalid, parseForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/community-tab';

// Two lists, each a page at a time with its own cursor: the report queue (oldest first) and every discussion.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const asked = new URL(request.url).searchParams;
  const reportsAfter = AfterQuery.safeParse({ after: asked.get('reports_after') ?? undefined });
  const discussionsQuery = SearchQuery.safeParse({ before: asked.get('before') ?? undefined, search: asked.get('search') ?? undefined });
  const [reports, discussions] = await Promise.all([
    services.communityModeration.reports(viewer, reportsAfter.success ? reportsAfter.data : {}),
    services.communityModeration.discussions(viewer, discussionsQuery.success ? discussionsQuery.data : {}),
  ]);
  return { reports, discussions, search: discussionsQuery.success ? (discussionsQuery.data.search ?? '') : '' };
}

const CommunityAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('post'), postId: PostParams.shape.id, action: Moderation }),
  z.object({ intent: z.literal('reply'), replyId: ReplyParams.shape.id, action: ReplyModeration }),
  z.object({ intent: z.literal('dismiss'), reportId: uuidParam('Report id') }),
  z.object({ intent: z.literal('suspend'), memberId: uuidParam('Member id'), suspended: z.enum(['true', 'false']) }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(CommunityAction, request);
  if (!form.ok) return invalid(form);
  const input = form.data;
  const done = await attempt(async () => {
    if (input.intent === 'post') await services.communityModeration.moderatePost(viewer, input.postId, input.action);
    else if (input.intent === 'reply') await services.communityModeration.moderateReply(viewer, input.replyId, input.action);
    else if (input.intent === 'dismiss') await services.communityModeration.resolveReport(viewer, input.reportId);
    else await services.communityModeration.suspend(viewer, input.memberId, input.suspended === 'true');
  });
  return done.ok ? { ok: true as const } : done.refusal;
}

/** One moderation button: a form of its own, confirmed when it cannot be undone. */
function Act({ fields, label, confirm, danger }: { fields: Record<string, string>; label: string; confirm?: string; danger?: boolean }) {
  const fetcher = useFetcher<typeof action>();
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) window.alert(fetcher.data.formError);
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form
      method="post"
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        disabled={fetcher.state !== 'idle'}
        className={`rounded-lg border px-3 py-1 text-xs font-semibold disabled:opacity-60 ${
          danger ? 'border-red-700 text-red-700 hover:bg-red-50' : 'border-gray-300 text-gray-800 hover:bg-gray-50'
        }`}
      >
        {label}
      </button>
    </fetcher.Form>
  );
}

function ReportItem({ report }: { report: ReportView }) {
  const target: Record<string, string> = report.reply_id
    ? { intent: 'reply', replyId: report.reply_id }
    : { intent: 'post', postId: report.post_id };
  return (
    <li className="rounded-xl border border-gold-400 bg-white p-4" data-report-id={report.id}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-gray-500">
        <span>
          {report.reply_id ? 'Reply' : 'Discussion'} in “{report.post_title}” · by {report.author_name}
          {report.author_suspended && ' (suspended)'}
        </span>
        <span>{formatDateTime(report.created_at)}</span>
      </div>
      <p className="mt-2 whitespace-pre-line break-words text-sm text-gray-900">{report.text}</p>
      <p className="mt-2 text-sm text-gray-700">
        Reported by {report.reporter_name}: <span className="italic">{report.reason}</span>
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Act fields={{ ...target, action: report.hidden ? 'unhide' : 'hide' }} label={report.hidden ? 'Unhide' : 'Hide'} />
        <Act
          fields={{ ...target, action: 'delete' }}
          label="Delete"
          danger
          confirm={`Delete this ${report.reply_id ? 'reply' : 'discussion'} for good?`}
        />
        {!report.reply_id && (
          <Act fields={{ ...target, action: report.locked ? 'unlock' : 'lock' }} label={report.locked ? 'Unlock' : 'Lock'} />
        )}
        {report.author_id && (
          <Act
            fields={{ intent: 'suspend', memberId: report.author_id, suspended: String(!report.author_suspended) }}
            label={report.author_suspended ? 'Lift suspension' : 'Suspend author'}
            danger={!report.author_suspended}
          />
        )}
        <Act fields={{ intent: 'dismiss', reportId: report.id }} label="Dismiss report" />
      </div>
    </li>
  );
}

function DiscussionRow({ discussion }: { discussion: StaffDiscussion }) {
  const post = { intent: 'post', postId: discussion.id };
  return (
    <tr data-discussion-id={discussion.id} className={discussion.hidden ? 'bg-gray-50 text-gray-500' : undefined}>
      <td className="py-2 pr-3">
        <p className="break-words font-medium text-gray-900">{discussion.title}</p>
        <p className="text-xs text-gray-500">
          {discussion.author_name} · {discussion.space === 'gold' ? 'Gold Lounge · ' : ''}
          {discussion.replies_count} replies · ♥ {discussion.likes_count}
          {discussion.hidden && ' · hidden'}
        </p>
      </td>
      <td className="py-2">
        <div className="flex flex-wrap gap-2">
          <Act fields={{ ...post, action: discussion.pinned ? 'unpin' : 'pin' }} label={discussion.pinned ? 'Unpin' : 'Pin'} />
          <Act fields={{ ...post, action: discussion.locked ? 'unlock' : 'lock' }} label={discussion.locked ? 'Unlock' : 'Lock'} />
          <Act fields={{ ...post, action: discussion.hidden ? 'unhide' : 'hide' }} label={discussion.hidden ? 'Unhide' : 'Hide'} />
        </div>
      </td>
    </tr>
  );
}

export default function CommunityTab({ loaderData }: Route.ComponentProps) {
  const { reports, discussions, search } = loaderData;
  return (
    <section className="space-y-8">
      <div>
        <h2 className="text-xl font-bold text-gray-900">Reports</h2>
        {reports.items.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500">No reports to look at.</p>
        ) : (
          <ul className="mt-3 space-y-3" data-testid="reports">
            {reports.items.map((report) => (
              <ReportItem key={report.id} report={report} />
            ))}
          </ul>
        )}
        <Pager param="reports_after" next={reports.next_cursor} label="More reports" />
      </div>
      <div>
        <h2 className="text-xl font-bold text-gray-900">Discussions</h2>
        <div className="mt-3">
          <SearchForm id="discussion-search" name="search" label="Search discussions" defaultValue={search} />
        </div>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm sm:min-w-[480px]">
            <tbody className="divide-y divide-gray-100">
              {discussions.items.map((discussion) => (
                <DiscussionRow key={discussion.id} discussion={discussion} />
              ))}
            </tbody>
          </table>
        </div>
        <Pager param="before" next={discussions.next_cursor} />
      </div>
    </section>
  );
}
