import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressWhole, encoderSettings } from './answer-compression.ts';

// Answers of every size the site compresses in one call (1 KB to 64 KB) must come back whole in both
// encodings: zlib takes a window of at most 32 KB, brotli up to 16 MB.
const answerOf = (size: number) => Buffer.from(JSON.stringify({ text: 'open house '.repeat(size) }).slice(0, size));

describe('compressing an answer whole', () => {
  it.each([1024, 5_000, 20_000, 40_000, 65_536])('gives back a %i byte answer whole, in brotli and in gzip', (size) => {
    const answer = answerOf(size);
    expect(zlib.brotliDecompressSync(compressWhole(answer, 'br')).equals(answer)).toBe(true);
    expect(zlib.gunzipSync(compressWhole(answer, 'gzip')).equals(answer)).toBe(true);
  });

  it("sizes the encoders' windows to the answer, within what each encoder takes", () => {
    expect(encoderSettings(1024).br.params[zlib.constants.BROTLI_PARAM_LGWIN]).toBe(10);
    expect(encoderSettings(13_000).br.params[zlib.constants.BROTLI_PARAM_LGWIN]).toBe(14);
    expect(encoderSettings(1_000_000).br.params[zlib.constants.BROTLI_PARAM_LGWIN]).toBe(18);
    expect(encoderSettings(1024).gzip.windowBits).toBe(10);
    expect(encoderSettings(65_536).gzip.windowBits).toBe(15);
  });
});
