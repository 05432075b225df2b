import { responsiveImage } from '../../lib/responsive-image.ts';

/** A photo staff chose: only the site's own images (the file library, or the bundled ones). */
const OWN_IMAGE = /^\/(?:api\/files\/[0-9a-f-]{36}|images\/[\w/.-]+)$/;

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');

/** Warm tones for drawn portraits, picked by the name so each person keeps theirs. */
const TONES = [
  ['#7f1d1d', '#d4a017'],
  ['#1d4e89', '#7fb3e6'],
  ['#2f6b4a', '#a7d7b8'],
  ['#6d2a7a', '#e0b3ea'],
] as const;

/**
 * A person's photo (content section site_photos), or until staff upload one, a drawn portrait:
 * their initials on a soft gradient, never an empty grey box.
 */
export function Portrait({ name, src, size, className = '' }: { name: string; src: string | undefined; size: number; className?: string }) {
  const style = { width: size, height: size };
  if (src && OWN_IMAGE.test(src.trim())) {
    return (
      <img
        {...responsiveImage(src.trim(), `${size}px`)}
        alt={name}
        width={size}
        height={size}
        loading="lazy"
        style={style}
        className={`img-skeleton shrink-0 rounded-full object-cover ${className}`}
      />
    );
  }
  const [from, to] = TONES[[...name].reduce((sum, char) => sum + char.charCodeAt(0), 0) % TONES.length]!;
  return (
    <span
      role="img"
      aria-label={name}
      style={{ ...style, backgroundImage: `linear-gradient(135deg, ${from}, ${to})`, fontSize: size * 0.38 }}
      className={`inline-grid shrink-0 place-items-center rounded-full font-bold text-white ring-4 ring-white ${className}`}
    >
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}
