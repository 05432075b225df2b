import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { Zip, ZipPassThrough } from 'fflate';
import { BRAND_NAME } from '../../common/brand.ts';
import { CE_TOPIC_LABEL, LICENCE_TYPE_LABEL, type LicenceStanding } from '../../common/licence.contract.ts';
import type { CeEntryRow } from './licence.repository.ts';

// 'Download for the commission' (issue 33, part 4): the cycle's transcript as a PDF a commission's
// auditor reads, and the cycle's certificates in one zip. Both read the cycle's entries page by page.

const PAGE = { width: 612, height: 792, margin: 48 };
const DARK_RED = rgb(0.5, 0.11, 0.11);
const GREY = rgb(0.35, 0.35, 0.35);

/** What the standard PDF fonts can write (WinAnsi): anything else becomes '?', so no name can break the file. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

/** The text cut to a width, with an ellipsis when it did not fit. */
function fitted(text: string, font: PDFFont, size: number, width: number): string {
  let value = printable(text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}...`, size) > width) value = value.slice(0, -1);
  return `${value}...`;
}

const COLUMNS = [
  { title: 'Date', width: 62 },
  { title: 'Course', width: 150 },
  { title: 'Provider', width: 92 },
  { title: 'Topic', width: 70 },
  { title: 'Hours', width: 34 },
  { title: 'Approval no.', width: 108 },
] as const;

export async function renderTranscriptPdf(input: {
  memberName: string;
  memberEmail: string;
  standing: LicenceStanding;
  entries: AsyncIterable<CeEntryRow>;
  /** The public page that verifies a certificate of this site by its code. */
  verifyUrl: (code: string) => string;
  generatedOn: string;
}): Promise<Uint8Array> {
  const { standing } = input;
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Continuing education transcript: ${printable(input.memberName)}, ${standing.state_name}`);
  pdf.setAuthor(BRAND_NAME);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const line = (
    text: string,
    options: { size?: number; font?: PDFFont; x?: number; color?: ReturnType<typeof rgb>; gap?: number } = {},
  ) => {
    const size = options.size ?? 10;
    const font = options.font ?? regular;
    const x = options.x ?? PAGE.margin;
    page.drawText(fitted(text, font, size, PAGE.width - PAGE.margin - x), { x, y, size, font, color: options.color ?? rgb(0.1, 0.1, 0.1) });
    y -= options.gap ?? size + 5;
  };
  const newPageIfBelow = (room: number) => {
    if (y >= PAGE.margin + room) return false;
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
    return true;
  };
  const header = () => {
    let x = PAGE.margin;
    for (const column of COLUMNS) {
      page.drawText(column.title, { x, y, size: 9, font: bold });
      x += column.width;
    }
    y -= 4;
    page.drawLine({ start: { x: PAGE.margin, y }, end: { x: PAGE.width - PAGE.margin, y }, thickness: 0.5, color: GREY });
    y -= 12;
  };

  line(BRAND_NAME, { size: 12, font: bold, color: DARK_RED });
  line('Continuing education transcript', { size: 18, font: bold, gap: 26 });
  line(`Licensee: ${input.memberName} (${input.memberEmail})`);
  line(
    `Licence: ${standing.state_name}, ${LICENCE_TYPE_LABEL[standing.licence_type]}${standing.licence_number ? `, number ${standing.licence_number}` : ''}`,
  );
  line(`Cycle: after ${standing.cycle_starts_on} up to the renewal on ${standing.renews_on}`);
  if (standing.requirement) {
    const topics = standing.topics.map((topic) => `${topic.label} ${topic.done} of ${topic.required}`).join('; ');
    line(
      `Requirement: ${standing.requirement.hours_per_cycle} hours every ${standing.requirement.cycle_months} months${topics ? ` (${topics})` : ''}`,
    );
    line(`Hours completed: ${standing.hours_done}; still missing: ${standing.hours_missing}`, { font: bold });
  } else {
    line(`Hours completed: ${standing.hours_done} (no requirement is kept for this state on the site)`, { font: bold });
  }
  line(`Generated on ${input.generatedOn}`, { size: 9, color: GREY, gap: 24 });

  header();
  let count = 0;
  for await (const entry of input.entries) {
    if (newPageIfBelow(40)) header();
    const cells = [
      entry.completedOn,
      entry.courseName,
      entry.provider,
      CE_TOPIC_LABEL[entry.topic],
      String(entry.hours),
      entry.approvalNumber ?? '',
    ];
    let x = PAGE.margin;
    cells.forEach((cell, index) => {
      const width = COLUMNS[index]!.width;
      page.drawText(fitted(cell, regular, 9, width - 6), { x, y, size: 9, font: regular });
      x += width;
    });
    y -= 12;
    const proof = entry.certificateCode
      ? `Certificate ${entry.certificateCode}, verify at ${input.verifyUrl(entry.certificateCode)}`
      : entry.certificateFilename
        ? `Certificate kept by the licensee: ${entry.certificateFilename} (in the certificates zip)`
        : 'No certificate on file';
    page.drawText(fitted(proof, regular, 8, PAGE.width - 2 * PAGE.margin - 62), {
      x: PAGE.margin + 62,
      y,
      size: 8,
      font: regular,
      color: GREY,
    });
    y -= 16;
    count += 1;
  }
  if (count === 0) line('No continuing education is recorded in this cycle yet.', { color: GREY });
  return pdf.save();
}

/** A name for a file in the zip: the entry's date and course, with nothing a file system refuses. */
export function zipEntryName(index: number, entry: { completedOn: string; courseName: string }, extension: string): string {
  const course = entry.courseName
    // eslint-disable-next-line no-control-regex -- names reach file systems
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${String(index).padStart(3, '0')} ${entry.completedOn} ${course || 'course'}.${extension}`;
}

/**
 * The zip of a cycle's certificates, written as each file is read (stored, not compressed: PDFs and
 * photos are compressed already), so a cycle's worth of files is never held at once.
 */
export async function* zipFiles(files: AsyncIterable<{ name: string; bytes: Uint8Array }>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  };
  for await (const file of files) {
    const entry = new ZipPassThrough(file.name);
    zip.add(entry);
    entry.push(file.bytes, true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
