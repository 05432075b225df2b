import { useSyncExternalStore } from 'react';
import type { PodcastEpisode } from '../../../common/podcast.contract.ts';
import { spotifyEmbedUrl, spotifyEpisodeId } from '../../../common/spotify.ts';

function watchConnection(changed: () => void) {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/**
 * An episode's Spotify player, and beside it a plain link to the episode on Spotify: the player is
 * another site's frame, which a blocker, a network that blocks Spotify or being offline can stop.
 */
export function SpotifyPlayer({ episode }: { episode: Pick<PodcastEpisode, 'title' | 'spotify_url'> }) {
  const embed = spotifyEmbedUrl(episode.spotify_url);
  const direct = spotifyEpisodeId(episode.spotify_url) ? episode.spotify_url.trim() : null;
  const offline = useSyncExternalStore(
    watchConnection,
    () => !navigator.onLine,
    () => false,
  );
  return (
    <div className="mt-4">
      {embed && !offline ? (
        <iframe
          title={`Spotify player: ${episode.title}`}
          src={embed}
          width="100%"
          height="152"
          loading="lazy"
          allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"
          className="rounded-xl border-0 bg-gray-100"
        />
      ) : (
        <p className="rounded-xl bg-gray-100 p-4 text-sm text-gray-600">
          {offline && embed ? 'The player needs a connection: you are offline.' : "This episode's player is not available."}
        </p>
      )}
      {direct && (
        <a
          href={direct}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-green-800 underline-offset-2 hover:underline"
        >
          Player not loading? Listen on Spotify
        </a>
      )}
    </div>
  );
}
