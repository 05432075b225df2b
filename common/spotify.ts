import { SPOTIFY_SHOW_URL } from './content-sections.ts';
// Only a well-formed Spotify episode URL becomes an embedded player; anything else is not embedded,
// so an administrator's typo or a hostile value never ends up as an iframe source.
const EPISODE_URL =
  /^https:\/\/open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-zA-Z]{2})?\/)?episode\/([A-Za-z0-9]{22})(?:\?[A-Za-z0-9=&_.%-]*)?$/;

export function spotifyEpisodeId(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = EPISODE_URL.exec(url.trim());
  return match?.[1] ?? null;
}

export function spotifyEmbedUrl(url: string | null | undefined): string | null {
  const id = spotifyEpisodeId(url);
  return id ? `https://open.spotify.com/embed/episode/${id}` : null;
}

/** The show's address staff set, when it is a Spotify address; otherwise the default. */
export function spotifyShowUrl(value: string | null | undefined): string {
  return value && /^https:\/\/open\.spotify\.com\/[A-Za-z0-9/_%?=&.-]+$/.test(value.trim()) ? value.trim() : SPOTIFY_SHOW_URL;
}
