import { pipeline, Readable, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Page forms reach React Router as a raw stream, past Fastify's own body limit, so pages get theirs here.
export const PAGE_FORM_LIMIT_BYTES = 1024 * 1024;

/** Fails the stream once more than `limit` bytes have passed, for bodies sent without a length. */
class ByteLimit extends Transform {
  private seen = 0;
  private readonly limit: number;
  constructor(limit: number) {
    super();
    this.limit = limit;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    this.seen += chunk.length;
    if (this.seen > this.limit) done(new Error(`The form is larger than ${this.limit} bytes.`));
    else done(null, chunk);
  }
}

/**
 * Refuses a page form larger than its limit (413) before anything reads it. `limitFor` gives the
 * limit of one request: staff uploads may be larger than every other form.
 */
export function limitPageBodies(limitFor: (request: FastifyRequest) => Promise<number>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const limit = await limitFor(request);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      return reply.status(413).type('text/plain; charset=utf-8').send('This form is too large to send.');
    }
    if (request.body instanceof Readable) {
      const limited = new ByteLimit(limit);
      // pipeline, not pipe: a client that goes away mid-body fails the limited stream too, so nothing waits forever.
      pipeline(request.body, limited, () => {});
      request.body = limited;
    }
  };
}
