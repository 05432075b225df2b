import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { Config } from '../config.ts';

// How long a connection may sit idle, and how long a kept-alive one waits for its next request
// (shorter than any proxy's idle timeout towards us, so the proxy never reuses a closed socket).
const IDLE_SOCKET_MS = 60_000;
const KEEP_ALIVE_MS = 5_000;
const HEADERS_TIMEOUT_MS = 20_000;

/**
 * The HTTP server with limits on slow clients: headers must arrive within 20 s and a whole request
 * within REQUEST_TIMEOUT_SECONDS (checked every second or so), idle sockets close, and at most
 * MAX_CONNECTIONS are open at once. A client that sends headers and then trickles its body is cut off.
 */
export function httpServerFactory(config: Pick<Config, 'requestTimeoutMs' | 'maxConnections'>): FastifyServerFactory {
  return (handler) => {
    const server = http.createServer(
      {
        requestTimeout: config.requestTimeoutMs,
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs),
        keepAliveTimeout: KEEP_ALIVE_MS,
        connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
      },
      handler,
    );
    server.maxConnections = config.maxConnections;
    server.setTimeout(IDLE_SOCKET_MS);
    return server;
  };
}
