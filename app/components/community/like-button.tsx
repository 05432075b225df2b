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
  return (
    <fetcher.Form method="post" className="inline">
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="intent" value={shownLiked ? 'unlike' : 'like'} />
      <button
        type="submit"
        aria-pressed={shownLiked}
        aria-label={shownLiked ? `Unlike (${shownCount} likes)` : `Like (${shownCount} likes)`}
        className={`rounded-full px-3 py-1 text-sm font-semibold ${shownLiked ? 'bg-brand-800 text-white' : 'bg-gray-100 text-gray-700 hover:bg-gray-200'}`}
      >
        ♥ {shownCount}
      </button>
    </fetcher.Form>
  );
}
