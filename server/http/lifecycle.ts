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
  app.addHook('onSend', async (_request, reply, payload) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
}

/**
 * Stops the way a deploy needs (SIGTERM): readiness fails at once, no new connection is accepted,
 * requests under way finish (for up to `graceMs`), connections close after their answer, and only
 * then the app closes (the mail worker stops, the database closes).
 */
export async function drainAndClose(app: FastifyInstance, graceMs: number): Promise<void> {
  app.lifecycle.draining = true;
  const server = app.server;
  if (server.listening) {
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
