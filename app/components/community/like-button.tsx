import { useFetcher } from 'react-router';

/**
 * ♥ and the count; a member who takes part can like and unlike (a form, so it works without
 * script; with script the change shows at once).
 */
export function LikeButton({ postId, liked, count, canLike }: { postId: string; liked: boolean; count: number; canLike: boolean }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('intent');
  const shownLiked = pending ? pending === 'like' : liked;
  const shownCount = pending ? count + (shownLiked === liked ? 0 : shownLiked ? 1 : -1) : count;
  if (!canLike) return <span className="text-sm text-gray-500">♥ {count}</span>;
  // Its name starts with what it shows ('♥ 3'), then says the rest; whether the member likes it is its pressed state.
  return (
    <fetcher.Form method="post" className="inline">
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="intent" value={shownLiked ? 'unlike' : 'like'} />
      <button
        type="submit"
        aria-pressed={shownLiked}
        className={`inline-flex min-h-11 items-center rounded-full px-3 text-sm font-semibold ${shownLiked ? 'bg-brand-800 text-white' : 'bg-gray-100 text-gray-700 hover:bg-gray-200'}`}
      >
        ♥ {shownCount}
        <span className="sr-only"> {shownCount === 1 ? 'like' : 'likes'}, Like</span>
      </button>
    </fetcher.Form>
  );
}
