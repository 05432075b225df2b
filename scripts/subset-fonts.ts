// Cuts the site's two variable fonts down to what almost every page uses (docs/decisions/028): the
// Basic Latin and Latin-1 letters, the typographic quotes, dashes, bullet, ellipsis, euro and trade
// mark, and the weights the site sets (400 to 800). app/app.css gives every other character of the
// fonts' Latin files to the full files, which a browser then loads only for a page that shows one.
// Run it after updating @fontsource-variable: `npm run fonts`. The cut files are committed.
import fs from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';

/** The code points of the cut files: the `unicode-range` of their @font-face rules in app/app.css. */
const BASIC_RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2013, 0x2014],
  [0x2018, 0x201a],
  [0x201c, 0x201e],
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
];
const characters = BASIC_RANGES.flatMap(([first, last]) =>
  Array.from({ length: last - first + 1 }, (_, offset) => String.fromCodePoint(first + offset)),
).join('');

const root = path.join(import.meta.dirname, '..');
const fonts = {
  'inter-basic-latin.woff2': '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  'plus-jakarta-sans-basic-latin.woff2': '@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2',
};
for (const [name, source] of Object.entries(fonts)) {
  const full = fs.readFileSync(path.join(root, 'node_modules', source));
  const cut = await subsetFont(full, characters, { targetFormat: 'woff2', variationAxes: { wght: { min: 400, max: 800, default: 400 } } });
  fs.writeFileSync(path.join(root, 'app/fonts', name), cut);
  console.log(`app/fonts/${name}: ${(full.length / 1024).toFixed(1)} KB -> ${(cut.length / 1024).toFixed(1)} KB`);
}
