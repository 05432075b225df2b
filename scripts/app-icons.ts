// Draws the installed app's icons (public/icons/*.png) from public/icons/app-icon.svg; run it
// after changing the drawing: `npm run icons`. The PNGs are committed: the build does not draw them.
import path from 'node:path';
import sharp from 'sharp';

const dir = path.join(import.meta.dirname, '../public/icons');
const source = path.join(dir, 'app-icon.svg');

// The drawing keeps its mark inside the middle 80%, so one file serves as a maskable icon too.
const sizes = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 };
for (const [name, size] of Object.entries(sizes)) {
  await sharp(source, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(dir, name));
  console.log(`public/icons/${name}: ${size}x${size}`);
}
