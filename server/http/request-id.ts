import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// An id a proxy may hand us: short, and nothing that could break a log line or a header.
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// The names proxy-addr (and so Fastify's trustProxy) gives to address ranges.
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/**
 * Whether the peer that sent a request is the proxy TRUST_PROXY names: any peer for 'true' or a
 * number of hops, else one of its addresses, ranges (CIDR) or named ranges.
 */
function trustedPeer(trustProxy: string | undefined): (address: string | undefined) => boolean {
  if (trustProxy === undefined || trustProxy === 'false') return () => false;
  if (trustProxy === 'true' || /^\d+$/.test(trustProxy)) return () => trustProxy !== '0';
  const trusted = new net.BlockList();
  for (const entry of trustProxy.split(',').map((part) => part.trim())) {
    const named = NAMED_RANGES[entry];
    if (named) for (const [address, prefix, family] of named) trusted.addSubnet(address, prefix, family);
    else if (entry.includes('/')) {
      const [address = '', prefix = ''] = entry.split('/');
      trusted.addSubnet(address, Number(prefix), net.isIPv6(address) ? 'ipv6' : 'ipv4');
    } else if (net.isIP(entry)) trusted.addAddress(entry, net.isIPv6(entry) ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    if (!address || !net.isIP(address)) return false;
    // An IPv4 peer on a dual-stack socket arrives as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
    return trusted.check(plain, net.isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}

/**
 * The id of each request: the `X-Request-Id` of the trusted proxy in front (TRUST_PROXY), when the
 * request came from it and the id is sensible, else a new UUID, so ids never collide between
 * processes and a client cannot choose its own id by going around the proxy.
 */
export function requestIdGenerator(trustProxy: string | undefined): (request: IncomingMessage) => string {
  const fromProxy = trustedPeer(trustProxy);
  return (request) => {
    const forwarded = fromProxy(request.socket.remoteAddress) ? request.headers['x-request-id'] : undefined;
    return typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
  };
}

/** Every answer names its request, so a member or a proxy can quote it and the logs find it. */
export function answerWithRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
