import { describe, expect, it } from 'vitest';
import { spotifyEmbedUrl } from './spotify.ts';

describe('spotifyEmbedUrl', () => {
  it('embeds a well-formed Spotify episode URL, with or without a query string', () => {
    expect(spotifyEmbedUrl('https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk')).toBe(
      'https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk',
    );
    expect(spotifyEmbedUrl('https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk?si=abc123')).toBe(
      'https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk',
    );
  });

  it('refuses anything else', () => {
    for (const url of [
      '',
      null,
      'http://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
      'https://open.spotify.com/track/4rOoJ6Egrf8K2IrywzwOMk',
      'https://open.spotify.com/episode/short',
      'https://evil.example/episode/4rOoJ6Egrf8K2IrywzwOMk',
      'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk"><script>',
      'javascript:alert(1)',
    ]) {
      expect(spotifyEmbedUrl(url)).toBeNull();
    }
  });
});
