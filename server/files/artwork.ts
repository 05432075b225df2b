import type { FastifyReply } from 'fastify';
import type { COURSE_CATEGORIES } from '../../common/courses.contract.ts';

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

/** What a cover is drawn for: a course category (its colours and its picture) or the podcast. */
export type ArtworkTheme = (typeof COURSE_CATEGORIES)[number] | 'podcast';

const THEMES: Record<ArtworkTheme, { from: string; to: string; accent: string; soft: string }> = {
  sales: { from: '#0f2a4a', to: '#1d4e89', accent: '#f5c542', soft: '#bcd4f2' },
  marketing: { from: '#0f4c4c', to: '#128a7e', accent: '#ffb199', soft: '#c5efe8' },
  negotiation: { from: '#3b1344', to: '#6d2a7a', accent: '#f5c542', soft: '#e6cdef' },
  specialization: { from: '#163d2b', to: '#2f6b4a', accent: '#f3e3b5', soft: '#cfe8d8' },
  business: { from: '#5c1414', to: '#991b1b', accent: '#f5c542', soft: '#fdf3d0' },
  podcast: { from: '#17121f', to: '#3a2452', accent: '#f5c542', soft: '#e0d4f5' },
};

/** A number from 0 to 1 for this seed and step, the same every time. */
const rand = (seed: number, step: number) => {
  const x = Math.sin(seed * 9301 + step * 49297) * 233280;
  return x - Math.floor(x);
};

/** Each theme's picture, on the right half: what the category is about, varied by the seed. */
const MOTIFS: Record<ArtworkTheme, (seed: number, t: (typeof THEMES)[ArtworkTheme]) => string> = {
  // Bars that climb: closing more.
  sales: (seed, t) =>
    [0, 1, 2, 3, 4]
      .map((i) => {
        const h = 60 + i * 38 + Math.round(rand(seed, i) * 30);
        return `<rect x="${380 + i * 46}" y="${300 - h}" width="32" height="${h}" rx="6" fill="${i === 4 ? t.accent : t.soft}" opacity="${i === 4 ? 1 : 0.35 + i * 0.1}"/>`;
      })
      .join(''),
  // Waves going out: reaching people.
  marketing: (seed, t) =>
    [0, 1, 2, 3]
      .map(
        (i) =>
          `<path d="M${430 + i * 34} ${120 - i * 26} a${70 + i * 34} ${70 + i * 34} 0 0 1 0 ${120 + i * 68}" fill="none" stroke="${i === 0 ? t.accent : t.soft}" stroke-width="${10 - i * 2}" stroke-linecap="round" opacity="${0.9 - i * 0.18}"/>`,
      )
      .join('') + `<circle cx="410" cy="${180 + Math.round(rand(seed, 1) * 10)}" r="22" fill="${t.accent}"/>`,
  // Two sides that meet.
  negotiation: (seed, t) => {
    const overlap = 40 + Math.round(rand(seed, 2) * 30);
    return `<circle cx="${470 - overlap / 2}" cy="180" r="90" fill="${t.soft}" opacity="0.35"/><circle cx="${470 + overlap}" cy="180" r="90" fill="${t.accent}" opacity="0.55"/>`;
  },
  // A home in its niche.
  specialization: (seed, t) => {
    const x = 400 + Math.round(rand(seed, 3) * 40);
    return `<path d="M${x} 300V190L${x + 90} 110 ${x + 180} 190V300Z" fill="${t.soft}" opacity="0.3"/><path d="M${x - 20} 200 ${x + 90} 100 ${x + 200} 200" fill="none" stroke="${t.accent}" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/><rect x="${x + 70}" y="230" width="40" height="70" fill="${t.accent}"/>`;
  },
  // A skyline of blocks: building the business.
  business: (seed, t) =>
    [0, 1, 2, 3, 4, 5]
      .map((i) => {
        const h = 80 + Math.round(rand(seed, i) * 150);
        return `<rect x="${370 + i * 40}" y="${310 - h}" width="34" height="${h}" fill="${i % 2 ? t.accent : t.soft}" opacity="${i % 2 ? 0.8 : 0.3}"/>`;
      })
      .join(''),
  // A waveform: a voice.
  podcast: (seed, t) =>
    Array.from({ length: 12 }, (_, i) => {
      const h = 24 + Math.round(rand(seed, i) * 150);
      return `<rect x="${400 + i * 18}" y="${180 - h / 2}" width="10" height="${h}" rx="5" fill="${i % 3 === 0 ? t.accent : t.soft}" opacity="${i % 3 === 0 ? 1 : 0.55}"/>`;
    }).join(''),
};

/**
 * A 640x360 cover: the theme's colours and picture (varied by `seed`, so no two look the same)
 * and a short label (the category, or the season and episode). The title is beside the cover on
 * every page, so the cover does not repeat it; it names it for screen readers only.
 */
export function artworkSvg(cover: { title: string; label: string; theme: ArtworkTheme; seed: number }): string {
  const t = THEMES[cover.theme];
  const label = escapeXml(cover.label.toUpperCase());
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360" role="img" aria-label="${escapeXml(cover.title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${t.from}"/><stop offset="1" stop-color="${t.to}"/></linearGradient></defs>
<rect width="640" height="360" fill="url(#g)"/>
<circle cx="${60 + Math.round(rand(cover.seed, 9) * 80)}" cy="330" r="140" fill="${t.soft}" opacity="0.06"/>
${MOTIFS[cover.theme](cover.seed, t)}
<rect x="40" y="56" width="36" height="5" rx="2" fill="${t.accent}"/>
<text x="40" y="98" font-family="'Plus Jakarta Sans', Inter, Arial, Helvetica, sans-serif" font-size="22" font-weight="800" letter-spacing="2" fill="#ffffff">${label}</text>
<text x="40" y="316" font-family="'Plus Jakarta Sans', Inter, Arial, Helvetica, sans-serif" font-size="16" font-weight="700" fill="${t.soft}" opacity="0.85">RealtyPocket</text>
</svg>
`;
}

/** The same seed for the same id. */
export const seedOf = (key: string) => [...key].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 100_003, 7);

/**
 * Answers with the artwork of a course or episode; `key` (its id) places the circles. What staff
 * see of a draft must not stay in a shared cache, so only a visitor's answer is public.
 */
export function sendArtwork(
  reply: FastifyReply,
  artwork: { title: string; label: string; theme: ArtworkTheme; key: string; shared: boolean },
) {
  return reply
    .type('image/svg+xml; charset=utf-8')
    .header('cache-control', artwork.shared ? 'public, max-age=300' : 'private, max-age=300')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(artworkSvg({ title: artwork.title, label: artwork.label, theme: artwork.theme, seed: seedOf(artwork.key) }));
}
