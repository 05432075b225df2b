import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { preferredEncoding } from '../cache/visitor-cache.ts';

/** Under this size an answer goes out as it is: compressing would save a packet at most. */
const COMPRESS_MIN_BYTES = 1024;
/** Answers whole in memory up to this size (every API page) are compressed here, in one call. */
const ONE_CALL_MAX_BYTES = 64 * 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|problem\+json|javascript|xml|manifest\+json))/;

/**
 * The encoder's settings for an answer of `size` bytes, compressed for one request: brotli's fastest
 * quality, with its window no larger than the answer. Quality 4 (the library's) keeps half a
 * megabyte of hash tables per call, which the C library maps and faults in fresh each time, as it is
 * told to for large buffers (decision 018): three to four times the cost of quality 1, for answers
 * only 10% smaller (2.7 KB instead of 3.0 KB for a page of twenty discussions).
 */
export function encoderSettings(size: number) {
  const windowBits = Math.min(Math.max(Math.ceil(Math.log2(Math.max(size, 1))), 10), 18);
  return {
    br: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
        [zlib.constants.BROTLI_PARAM_LGWIN]: windowBits,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
      },
    },
    // zlib's window is 512 bytes to 32 KB.
    gzip: { windowBits: Math.min(Math.max(windowBits, 9), 15), memLevel: 7 },
  };
}

export function compressWhole(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  const settings = encoderSettings(body.length);
  return encoding === 'br' ? zlib.brotliCompressSync(body, settings.br) : zlib.gzipSync(body, settings.gzip);
}

/**
 * API answers and other bodies already whole in memory are compressed in one call on the request
 * thread, sized to the answer: on two cores a compression stream per answer (a zlib context, hops to
 * the thread pool and back) cost more than the compression and halved a search answer's pace. What
 * streams (exports, files) is left to @fastify/compress, registered after this hook.
 */
export function compressWholeAnswers(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES || size > ONE_CALL_MAX_BYTES || reply.statusCode === 206 || reply.hasHeader('content-encoding')) {
      return done(null, payload);
    }
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return done(null, payload);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    const compressed = compressWhole(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding);
    reply.header('content-encoding', encoding);
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    reply.header('content-length', compressed.length);
    done(null, compressed);
  });
}
