import type { FastifyInstance } from 'fastify';

// The site's security headers, computed once at start (building them per request cost a quarter
// of the CPU of a cached answer). Pages add their own per-request script nonce to the CSP.
const directives = (scriptSrc: string, formTargets: readonly string[]) =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' https: data:",
    ["form-action 'self'", ...formTargets].join(' '),
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

/**
 * Where the site's own forms may lead besides itself: Stripe's checkout and customer portal, when
 * payments are on (a plan button posts to the site, which redirects to them).
 */
export function paymentFormTargets(stripe: { apiBase: string | undefined } | undefined): string[] {
  if (!stripe) return [];
  return ['https://checkout.stripe.com', 'https://billing.stripe.com', ...(stripe.apiBase ? [new URL(stripe.apiBase).origin] : [])];
}

/** The CSP of a server-rendered page: only the site's own scripts and the inline ones carrying this nonce. */
export const pageContentSecurityPolicy = (nonce: string, formTargets: readonly string[]) =>
  directives(`'self' 'nonce-${nonce}'`, formTargets);

/** The CSP of a page every visitor gets alike: its inline scripts are allowed by their SHA-256, as no nonce can be shared. */
export const sharedPageContentSecurityPolicy = (scriptHashes: readonly string[], formTargets: readonly string[]) =>
  directives(["'self'", ...scriptHashes.map((hash) => `'sha256-${hash}'`)].join(' '), formTargets);

/** Sets the site's security headers on every answer; returns them, for answers given before the app (front-door.ts). */
export function securityHeaders(
  app: FastifyInstance,
  options: { production: boolean; formTargets: readonly string[] },
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    'content-security-policy': directives("'self'", options.formTargets),
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
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return headers;
}
