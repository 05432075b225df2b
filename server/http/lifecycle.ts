import net from 'node:net';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once the process is stopping: readiness fails, and every answer closes its connection. */
    lifecycle: { draining: boolean };
  }
}

/** While the process drains, each answer ends its connection, so keep-alive clients move to another process. */
export function closeConnectionsWhileDraining(app: FastifyInstance): void {
  app.decorate('lifecycle', { draining: false });
  // At the answer, not at the request: a request already under way when the drain began closes its connection too.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Stops the way a deploy needs (SIGTERM): readiness fails at once, the connections already waiting to
 * be accepted are taken (a second at most), then no new one is, requests under way finish (for up to
 * `graceMs`), connections close after their answer, and only then the app closes (the mail worker
 * stops, the database closes).
 */
export async function drainAndClose(app: FastifyInstance, graceMs: number): Promise<void> {
  app.lifecycle.draining = true;
  const server = app.server;
  if (server.listening) {
    await acceptQueued(server);
    await new Promise<void>((resolve) => {
      const cutOff = setTimeout(() => {
        app.log.warn(`requests still open after ${Math.round(graceMs / 1000)} s; closing their connections`);
        server.closeAllConnections();
        resolve();
      }, graceMs);
      // net.Server's close stops accepting and waits for open connections; http.Server's would also
      // drop idle keep-alive connections at once, racing a client that just sent a request on one.
      // Idle ones close at the keep-alive timeout (5 s), which clients expect and stay ahead of.
      net.Server.prototype.close.call(server, () => {
        clearTimeout(cutOff);
        resolve();
      });
    });
  }
  await app.close();
}

/** The longest the listener stays open after the signal, accepting the connections already waiting. */
const ACCEPT_QUEUED_MAX_MS = 1_000;

/**
 * Resolves once the connections waiting in the listening socket's queue are accepted: after a turn of
 * the event loop that accepted none, or `maxMs` at most. A client's connection is complete, and its
 * request sent, before the process accepts it, which it does in a later turn of its event loop: a
 * busy or CPU-starved process may have tens waiting when the signal is handled. Closing the listener with
 * them in the queue would make the kernel reset each, its request unanswered; accepted, each request
 * gets its answer (with `Connection: close`).
 */
function acceptQueued(server: net.Server, maxMs = ACCEPT_QUEUED_MAX_MS): Promise<void> {
  return new Promise((resolve) => {
    const deadline = performance.now() + maxMs;
    let accepted = true;
    const onConnection = () => {
      accepted = true;
    };
    server.on('connection', onConnection);
    // Each callback runs after a poll for I/O, in which the listener accepts what is waiting.
    const turn = () => {
      if (!accepted || performance.now() >= deadline) {
        server.off('connection', onConnection);
        resolve();
        return;
      }
      accepted = false;
      setImmediate(turn);
    };
    setImmediate(turn);
  });
}
