import zlib from 'node:zlib';

/** The text a PDF made by pdf-lib shows: its compressed content streams, inflated, their hex strings decoded. */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const match of pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      continue; // not a compressed content stream
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) lines.push(Buffer.from(text[1] ?? '', 'hex').toString('latin1'));
  }
  return lines.join('\n');
}
