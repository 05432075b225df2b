import zlib from 'node:zlib';

/**
 * The text a PDF made by pdf-lib shows: its compressed content streams, inflated, their hex strings decoded.
 * Each stream is cut by its dictionary's /Length, never by searching for `endstream`: compressed bytes may end in
 * a carriage return or hold any byte sequence, so a pattern match loses a stream now and then.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  const source = pdf.toString('latin1');
  for (const match of source.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    let content: string;
    try {
      content = zlib.inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    } catch {
      continue; // not a compressed content stream
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) lines.push(Buffer.from(text[1] ?? '', 'hex').toString('latin1'));
  }
  return lines.join('\n');
}
