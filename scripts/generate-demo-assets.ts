import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { DEMO_COURSES, DEMO_EPISODES, DEMO_RESOURCES } from '../db/seed/demo-catalogue.ts';
import type { ResourceType } from '../common/resources.contract.ts';
import { artworkSvg, seedOf, wrap } from '../server/files/artwork.ts';

// Writes the demo catalogue's thumbnails (SVG, under public/) and downloads (PDF, under db/seed/files/),
// so the site works offline. Run after changing the demo catalogue: `node scripts/generate-demo-assets.ts`.

const publicDir = path.resolve(import.meta.dirname, '../public');
async function resourcePdf(title: string, description: string, type: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setAuthor('RealtyPocket');
  const page = pdf.addPage([612, 792]);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawRectangle({ x: 0, y: 712, width: 612, height: 80, color: rgb(0.5, 0.11, 0.11) });
  page.drawText('RealtyPocket', { x: 48, y: 742, size: 22, font: bold, color: rgb(0.96, 0.77, 0.26) });
  page.drawText(type, { x: 48, y: 672, size: 12, font: bold, color: rgb(0.72, 0.53, 0.04) });
  wrap(title, 48).forEach((line, i) => page.drawText(line, { x: 48, y: 644 - i * 26, size: 20, font: bold }));
  wrap(description, 80).forEach((line, i) => page.drawText(line, { x: 48, y: 570 - i * 18, size: 12, font: regular }));
  page.drawText('Put it to work this week: pick one idea above, block 30 minutes in your calendar, and track the result.', {
    x: 48,
    y: 470,
    size: 10,
    font: regular,
    color: rgb(0.3, 0.3, 0.3),
  });
  return pdf.save();
}

fs.mkdirSync(path.join(publicDir, 'images/courses'), { recursive: true });
fs.mkdirSync(path.join(publicDir, 'images/podcast'), { recursive: true });
fs.mkdirSync(path.join(publicDir, 'downloads'), { recursive: true });
for (const course of DEMO_COURSES) {
  const cover = { title: course.title, label: course.category, theme: course.category, seed: seedOf(course.id) };
  fs.writeFileSync(path.join(publicDir, course.thumbnail), artworkSvg(cover));
}
for (const episode of DEMO_EPISODES) {
  const label = `Season ${episode.season} · Episode ${episode.episode}`;
  fs.writeFileSync(
    path.join(publicDir, episode.thumbnail),
    artworkSvg({ title: episode.title, label, theme: 'podcast', seed: seedOf(episode.id) }),
  );
}
const TYPE_LABEL: Record<ResourceType, string> = {
  daily_tip: 'DAILY TIP',
  ebook: 'EBOOK',
  workbook: 'WORKBOOK',
  article: 'ARTICLE',
  market_report: 'MARKET REPORT',
};
// Downloads are members-only: they live beside the seed, which puts them into the file store.
const seedFilesDir = path.resolve(import.meta.dirname, '../db/seed/files');
for (const resource of DEMO_RESOURCES) {
  if (!resource.download_file) continue;
  fs.writeFileSync(
    path.join(seedFilesDir, resource.download_file),
    await resourcePdf(resource.title, resource.description, TYPE_LABEL[resource.resource_type]),
  );
}
console.log('Demo assets written under public/ (images) and db/seed/files/ (downloads).');
