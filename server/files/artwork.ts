import type { FastifyReply } from 'fastify';

// Generated cover artwork, for the demo catalogue's files and for courses and episodes staff create without an image.

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if ((line + ' ' + word).trim().length > width) {
      lines.push(line.trim());
      line = word;
    } else line += ` ${word}`;
  }
  if (line.trim()) lines.push(line.trim());
  return lines;
}

/** A 640x360 cover: the label (category or season) above the title, with circles placed by `seed`. */
export function artworkSvg(title: string, label: string, seed: number): string {
  const lines = wrap(title, 24).slice(0, 3);
  const startY = 180 - (lines.length - 1) * 24;
  const circles = [0, 1, 2]
    .map(
      (i) =>
        `<circle cx="${520 + ((seed * 37 + i * 53) % 90)}" cy="${70 + i * 95}" r="${40 + ((seed + i) % 3) * 18}" fill="#f5c542" opacity="${(0.12 + i * 0.05).toFixed(2)}"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360" role="img" aria-label="${escapeXml(title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5c1414"/><stop offset="1" stop-color="#991b1b"/></linearGradient></defs>
<rect width="640" height="360" fill="url(#g)"/>${circles}
<rect x="40" y="40" width="6" height="280" fill="#d4a017"/>
<text x="70" y="80" font-family="Arial, Helvetica, sans-serif" font-size="18" font-weight="700" letter-spacing="3" fill="#f5c542">${escapeXml(label.toUpperCase())}</text>
${lines.map((line, i) => `<text x="70" y="${startY + i * 48}" font-family="Arial, Helvetica, sans-serif" font-size="38" font-weight="700" fill="#ffffff">${escapeXml(line)}</text>`).join('\n')}
<text x="70" y="320" font-family="Arial, Helvetica, sans-serif" font-size="16" fill="#fdf3d0">RealtyPocket</text>
</svg>
`;
}

/**
 * Answers with the artwork of a course or episode; `key` (its id) places the circles. What staff
 * see of a draft must not stay in a shared cache, so only a visitor's answer is public.
 */
export function sendArtwork(reply: FastifyReply, artwork: { title: string; label: string; key: string; shared: boolean }) {
  const seed = [...artwork.key].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return reply
    .type('image/svg+xml; charset=utf-8')
    .header('cache-control', artwork.shared ? 'public, max-age=300' : 'private, max-age=300')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(artworkSvg(artwork.title, artwork.label, seed));
}
