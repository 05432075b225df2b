import type { AddressInfo } from 'node:net';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.ts';
import { startFakeStripe, type FakeStripe } from './stripe-server.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface BillingSite {
  t: TestApp;
  fake: FakeStripe;
  smtp: TestSmtpServer;
  close(): Promise<void>;
}

/**
 * A test app that takes payments and sends mail as the site does: the Stripe-compatible server and
 * an SMTP server of its own, and Stripe's signed webhooks delivered to it over a real socket.
 */
export async function startBillingSite(publicUrl: string): Promise<BillingSite> {
  const fake = await startFakeStripe();
  const smtp = await startSmtpServer();
  const t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
      SMTP_URL: smtp.url,
      PUBLIC_URL: publicUrl,
    },
    mailTiming: { pollMs: 200, retryBaseMs: 200 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhookTarget(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/billing/webhook`);
  return {
    t,
    fake,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
      await fake.close();
    },
  };
}
