import type { FastifyInstance } from 'fastify';

// The site's security headers, computed once at start (building them per request cost a quarter
// of the CPU of a cached answer). Pages add their own per-request script nonce to the CSP.
const directives = (scriptSrc: string) =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' https: data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "img-src 'self' data: https:",
    "object-src 'none'",
    `script-src ${scriptSrc}`,
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "media-src 'self' https: blob:",
    'frame-src https://open.spotify.com https://www.youtube-nocookie.com https://player.vimeo.com',
    "connect-src 'self'",
  ].join(';');

/** The CSP of a server-rendered page: only the site's own scripts and the inline ones carrying this nonce. */
export const pageContentSecurityPolicy = (nonce: string) => directives(`'self' 'nonce-${nonce}'`);

export function securityHeaders(app: FastifyInstance, options: { production: boolean }) {
  const headers: Record<string, string> = {
    'content-security-policy': directives("'self'"),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    // Browsers then still send Origin with the site's own form posts (with no-referrer they send
    // "Origin: null", which React Router refuses as a possible cross-site request).
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  // Only meaningful behind HTTPS, which is how production runs.
  if (options.production) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
