import http from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { Config } from '../config.ts';
import type { FrontDoor } from './front-door.ts';

// How long a connection may sit idle, and how long a kept-alive one waits for its next request
// (shorter than any proxy's idle timeout towards us, so the proxy never reuses a closed socket).
const IDLE_SOCKET_MS = 60_000;
const KEEP_ALIVE_MS = 5_000;
const HEADERS_TIMEOUT_MS = 20_000;
// A body still arriving after its answer (a 413, a 401) is read and dropped up to twice the upload
// limit (64 MB at least), and for no longer than a whole request may take: a file a little too large,
// or a form many times too large, and its sender reads the answer. Past these, the connection is cut.
const DRAIN_MIN_BYTES = 64 * 1024 * 1024;

interface DrainBounds {
  maxBytes: number;
  maxMs: number;
}

/**
 * Reads and drops what is left of a request body once its answer is sent. A browser sends the whole
 * body before it reads the answer: were the connection closed under it, its kernel would get a reset
 * and throw the answer away, and the member would see a network error instead of the message.
 */
function drainUnreadBody(request: http.IncomingMessage, bounds: DrainBounds): void {
  if (request.complete || request.destroyed) return;
  const socket = request.socket;
  if (Number(request.headers['content-length']) > bounds.maxBytes) {
    // Too much to read for nothing: the connection is cut, and the client may see it reset.
    socket.destroy();
    return;
  }
  const cutOff = setTimeout(() => socket.destroy(), bounds.maxMs);
  cutOff.unref();
  const done = () => clearTimeout(cutOff);
  request.once('end', done);
  request.once('close', done);
  socket.once('close', done);
  // Whoever was reading it (a multipart parser that gave up) reads no more; the rest goes nowhere,
  // counted, as a body sent in chunks says nothing of its length beforehand.
  request.unpipe();
  let drained = 0;
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > bounds.maxBytes) socket.destroy();
  });
  request.resume();
}

/**
 * The HTTP server with limits on slow clients: headers must arrive within 20 s and a whole request
 * within REQUEST_TIMEOUT_SECONDS (checked every second or so), idle sockets close, and at most
 * MAX_CONNECTIONS are open at once. A client that sends headers and then trickles its body is cut off.
 * An answer sent before its body was read (a body over the limit) is read by the client: the rest of
 * the body is drained, within bounds, instead of the connection being reset under the client.
 * Requests meet the front door first (front-door.ts), and go on to the app unless it answered them.
 */
export function httpServerFactory(
  config: Pick<Config, 'requestTimeoutMs' | 'maxConnections' | 'uploadMaxBytes'>,
  frontDoor: FrontDoor,
): FastifyServerFactory {
  const drain: DrainBounds = {
    maxBytes: Math.max(2 * config.uploadMaxBytes, DRAIN_MIN_BYTES),
    maxMs: config.requestTimeoutMs,
  };
  return (handler) => {
    const server = http.createServer(
      {
        requestTimeout: config.requestTimeoutMs,
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs),
        keepAliveTimeout: KEEP_ALIVE_MS,
        connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
        // A request that names neither a length nor chunks has no body (RFC 9112, 6.3): Node gives it
        // already read, sparing nearly every request (each page and API read) a stream's life cycle
        // of events, which cost a kept answer a fifth of its time. Such a request never emits 'end'
        // or 'close'; whoever would read its body reads an empty one instead (readAbsentBodiesAsEmpty).
        optimizeEmptyRequests: true,
      },
      (request, response) => {
        // Only a request that says it has a body can have one left unread.
        if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) {
          response.once('finish', () => drainUnreadBody(request, drain));
        }
        if (!frontDoor.tryAnswer(request, response)) handler(request, response);
      },
    );
    server.maxConnections = config.maxConnections;
    server.setTimeout(IDLE_SOCKET_MS);
    return server;
  };
}

/**
 * A request without a body comes already read (optimizeEmptyRequests above): its stream never ends,
 * and a parser waiting for its end would wait until the connection is cut. One that names a type
 * (`curl -X POST -H 'content-type: application/json'`) is parsed from an empty stream, as if it had
 * said `content-length: 0`, and gets the same answer ('The request body is empty.').
 */
export function readAbsentBodiesAsEmpty(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    done(null, request.raw.readableEnded && request.headers['content-type'] !== undefined ? Readable.from([]) : payload);
  });
}
