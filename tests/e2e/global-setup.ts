import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServerProcess } from '../helpers/server-process.ts';
import { startFakeStripe } from '../helpers/stripe-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    /** Where the server writes every email it sends (no SMTP server: .eml files). */
    outboxDir: string;
    /** The tests' Stripe-compatible server, whose checkout page the browser pays on. */
    stripeUrl: string;
  }
}

const projectRoot = path.resolve(import.meta.dirname, '../..');
export const E2E_ADMIN = { email: 'owner@realtypocket.test', password: 'e2e-admin-password' };
/** The token /metrics asks for: the browser tests' server trusts a proxy, so this machine alone is not enough. */
export const E2E_METRICS_TOKEN = 'e2e-metrics-token';

export interface SiteServer {
  baseUrl: string;
  /** Where the server writes every email it sends (no SMTP server: .eml files). */
  outboxDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the production build (`node server/main.ts`) on a fresh embedded database with the demo
 * catalogue; `env` adds or overrides settings (payments, for one).
 */
export async function startSiteServer(env: Record<string, string> = {}): Promise<SiteServer> {
  if (!fs.existsSync(path.join(projectRoot, 'build/server/index.js'))) {
    throw new Error('No production build: run `npm run build` before the browser tests.');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-e2e-'));
  const server = await startServerProcess({
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      STRIPE_API_BASE: '',
      // Each browser context reports its own client address (tests/e2e/browser.ts), as visitors
      // behind a proxy would, so the per-address sign-in and sign-up limits see many visitors.
      TRUST_PROXY: '127.0.0.1',
      // The site's links name the port it took (server/serve.ts).
      PUBLIC_URL: '',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      METRICS_TOKEN: E2E_METRICS_TOKEN,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const baseUrl = server.url;
  return {
    baseUrl,
    outboxDir: path.join(dataDir, 'outbox'),
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The site as the browser tests use it: payments on, against the tests' own Stripe-compatible server. */
export default async function setup(project: TestProject) {
  const stripe = await startFakeStripe();
  const site = await startSiteServer({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  });
  stripe.setWebhookTarget(`${site.baseUrl}/api/billing/webhook`);
  project.provide('baseUrl', site.baseUrl);
  project.provide('adminEmail', E2E_ADMIN.email);
  project.provide('adminPassword', E2E_ADMIN.password);
  project.provide('outboxDir', site.outboxDir);
  project.provide('stripeUrl', stripe.url);

  return async () => {
    await site.stop();
    await stripe.close();
  };
}
