import { data, Form, Link, redirect, useActionData, useFetcher, useNavigation } from 'react-router';
import { z } from 'zod';
import {
  EditPostInput,
  PostParams,
  PostQuery,
  ReplyInput,
  ReplyParams,
  ReportInput,
  type PostDetail,
  type ReplyView,
} from '../../../common/community.contract.ts';
import { AuthorLine } from '../../components/community/author-line.tsx';
import { LikeButton } from '../../components/community/like-button.tsx';
import { LinkedText } from '../../components/community/linked-text.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmedForm } from '../../components/ui/confirmed-form.tsx';
import { Input, Textarea } from '../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, pageServices, pageSession } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/post';
import { TEXT_MAX } from '../../../common/limits.ts';

export const meta = ({ loaderData: loaded }: Route.MetaArgs) =>
  pageMeta({ title: loaded?.detail ? loaded.detail.post.title : 'Discussion', description: 'A discussion in the RealtyPocket community.' });

// A discussion and its replies, for members (visitors read the preview on /community).
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const id = PostParams.safeParse({ id: params.postId });
  const query = PostQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const replies = query.success ? query.data : {};
  const detail = id.success ? await attempt(() => services.community.post(viewer, id.data.id, replies)) : null;
  if (!detail?.ok)
    return data({ detail: null, message: detail ? detail.message : 'Discussion not found' }, { status: detail?.status ?? 404 });
  return { detail: detail.value, message: null };
}

const PostForm = z.discriminatedUnion('intent', [
  ReplyInput.extend({ intent: z.literal('reply') }),
  z.object({ intent: z.enum(['like', 'unlike']) }),
  EditPostInput.extend({ intent: z.literal('edit-post') }),
  z.object({ intent: z.literal('delete-post') }),
  ReplyInput.extend({ intent: z.literal('edit-reply'), replyId: ReplyParams.shape.id }),
  z.object({ intent: z.literal('delete-reply'), replyId: ReplyParams.shape.id }),
  z.object({
    intent: z.literal('report'),
    replyId: ReplyParams.shape.id.optional(),
    reason: ReportInput.shape.reason,
  }),
]);

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await parseForm(PostForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const postId = params.postId;
  const input = form.data;
  const done = (message: string) => ({ ok: true as const, message });
  switch (input.intent) {
    case 'reply': {
      const replied = await attempt(() => services.community.reply(viewer, postId, input));
      return replied.ok ? done('Your reply is posted.') : replied.refusal;
    }
    case 'like':
    case 'unlike': {
      const liked = await attempt(() => services.community.like(viewer, postId, input.intent === 'like'));
      return liked.ok ? done(input.intent === 'like' ? 'Liked.' : 'Like taken back.') : liked.refusal;
    }
    case 'edit-post': {
      const edited = await attempt(() => services.community.editPost(viewer, postId, input));
      return edited.ok ? done('Your discussion is updated.') : edited.refusal;
    }
    case 'delete-post': {
      const deleted = await attempt(() => services.community.deletePost(viewer, postId));
      if (!deleted.ok) return deleted.refusal;
      pageSession(context).flash({ type: 'success', message: 'Your discussion is deleted.' });
      throw redirect('/community');
    }
    case 'edit-reply': {
      const edited = await attempt(() => services.community.editReply(viewer, input.replyId, input));
      return edited.ok ? done('Your reply is updated.') : edited.refusal;
    }
    case 'delete-reply': {
      const deleted = await attempt(() => services.community.deleteReply(viewer, input.replyId));
      return deleted.ok ? done('Your reply is deleted.') : deleted.refusal;
    }
    case 'report': {
      const reported = await attempt(() =>
        services.community.report(viewer, { post_id: postId, reply_id: input.replyId, reason: input.reason }),
      );
      return reported.ok ? done('Thank you. Our team will look at it.') : reported.refusal;
    }
  }
}

/** 'Report': a reason, sent to staff. Folded away until asked for. */
function ReportForm({ replyId }: { replyId?: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-gray-500 hover:text-gray-700">Report</summary>
      <fetcher.Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="report" />
        {replyId && <input type="hidden" name="replyId" value={replyId} />}
        <Input label="What is wrong?" name="reason" required maxLength={TEXT_MAX.reportReason} compact className="min-w-48 flex-1" />
        <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
          Send report
        </Button>
      </fetcher.Form>
    </details>
  );
}

/** Edit and Delete for the member's own post or reply. */
function OwnActions({ replyId, title, body }: { replyId?: string; title?: string; body: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const what = replyId ? 'reply' : 'discussion';
  return (
    <div className="flex flex-wrap items-start gap-4 text-sm">
      <details>
        <summary className="cursor-pointer font-semibold text-brand-800">Edit</summary>
        <fetcher.Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="intent" value={replyId ? 'edit-reply' : 'edit-post'} />
          {replyId && <input type="hidden" name="replyId" value={replyId} />}
          {title !== undefined && <Input label="Title" name="title" defaultValue={title} required maxLength={TEXT_MAX.postTitle} compact />}
          <Textarea
            label={replyId ? 'Reply' : 'Message'}
            name="body"
            defaultValue={body}
            required
            rows={3}
            maxLength={replyId ? TEXT_MAX.reply : TEXT_MAX.postBody}
            compact
          />
          <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
            Save
          </Button>
        </fetcher.Form>
      </details>
      <ConfirmedForm
        fetcher={fetcher}
        question={`Delete your ${what}?`}
        fields={replyId ? { intent: 'delete-reply', replyId } : { intent: 'delete-post' }}
      >
        <button type="submit" className="font-semibold text-red-700 hover:text-red-600">
          Delete
        </button>
      </ConfirmedForm>
    </div>
  );
}

function Reply({ reply }: { reply: ReplyView }) {
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-reply-id={reply.id}>
      <AuthorLine name={reply.author.name} tier={reply.author.tier} date={reply.created_at} edited={reply.edited_at !== null} />
      <LinkedText text={reply.body} className="mt-2 text-gray-700" />
      <div className="mt-2">{reply.mine ? <OwnActions replyId={reply.id} body={reply.body} /> : <ReportForm replyId={reply.id} />}</div>
    </li>
  );
}

function ReplyComposer({ detail }: { detail: PostDetail }) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.formData?.get('intent') === 'reply';
  if (detail.post.locked)
    return <p className="rounded-xl bg-gray-100 px-4 py-3 text-gray-700">This discussion is locked: it takes no new replies.</p>;
  if (!detail.rights.can_post) {
    return (
      <Card className="bg-gold-100">
        <p className="text-gray-900">{detail.rights.reason}</p>
        <ButtonLink to="/pricing" size="sm" className="mt-3">
          View Membership Plans
        </ButtonLink>
      </Card>
    );
  }
  return (
    // Keyed by the number of replies, so the field empties once a reply is in.
    <Form method="post" className="space-y-3" key={detail.replies.length}>
      <input type="hidden" name="intent" value="reply" />
      {result && !result.ok && result.formError && (
        <p role="alert" className="text-sm text-red-700">
          {result.formError}
        </p>
      )}
      <Textarea label="Your reply" name="body" required rows={3} maxLength={TEXT_MAX.reply} compact />
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? 'Replying...' : 'Reply'}
      </Button>
    </Form>
  );
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  const { detail, message } = loaderData;
  if (!detail) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-gray-900">{message}</h1>
        <ButtonLink to="/community" className="mt-6">
          Back to the community
        </ButtonLink>
      </div>
    );
  }
  const { post, replies, rights, next_cursor: moreReplies } = detail;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <Link
        to={post.space === 'gold' ? '/community?space=gold' : '/community'}
        className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
      >
        ← {post.space === 'gold' ? 'Gold Lounge' : 'Community'}
      </Link>
      <Card as="article">
        <AuthorLine name={post.author.name} tier={post.author.tier} date={post.created_at} edited={post.edited_at !== null} />
        <h1 className="mt-4 text-2xl font-extrabold text-gray-900">{post.title}</h1>
        <LinkedText text={post.content} className="mt-3 text-gray-800" />
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <LikeButton postId={post.id} liked={post.liked_by_me} count={post.likes_count} canLike={rights.can_like} />
          <span className="text-sm text-gray-600">{post.replies_count} replies</span>
        </div>
        <div className="mt-3">{post.mine ? <OwnActions title={post.title} body={post.content} /> : <ReportForm />}</div>
      </Card>
      <section aria-labelledby="replies" className="space-y-4">
        <h2 id="replies" className="text-lg font-bold text-gray-900">
          Replies
        </h2>
        {replies.length === 0 ? (
          <p className="text-gray-600">No replies yet.</p>
        ) : (
          <ol className="space-y-3">
            {replies.map((reply) => (
              <Reply key={reply.id} reply={reply} />
            ))}
          </ol>
        )}
        {moreReplies ? (
          // Replies come a page at a time; the reply form waits at the last page, where a new reply shows.
          <Link
            to={`?${new URLSearchParams({ after: moreReplies })}`}
            rel="next"
            className="flex min-h-11 items-center text-sm font-semibold text-brand-800"
          >
            More replies →
          </Link>
        ) : (
          <ReplyComposer detail={detail} />
        )}
      </section>
    </div>
  );
}
