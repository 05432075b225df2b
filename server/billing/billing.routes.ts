import { z } from 'zod';
import {
  BillingOverview,
  CheckoutInput,
  CheckoutRequest,
  InvoiceList,
  RefundParams,
  RefundResponse,
  Revenue,
  SubscriptionResponse,
  SubscriptionView,
  UrlResponse,
} from '../../common/billing.contract.ts';
import { notFound } from '../../common/errors.ts';
import {
  OFFER_NOT_VALID,
  OfferCodeParams,
  OfferInput,
  OfferParams,
  OffersQuery,
  OfferView,
  PublicOffer,
  TrialSettings,
} from '../../common/offers.contract.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

const WebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

export async function billingRoutes(app: ZodApp) {
  const { billing, billingAdmin, offers, offersAdmin } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: { area: 'billing' } } as const;

  app.post(
    '/api/billing/checkout',
    { config: member, schema: { body: CheckoutRequest, response: withErrors({ 200: UrlResponse }) } },
    async (request) => billing.checkout(await request.viewer(), request.body),
  );

  // An offer code as /pricing shows it: each plan's price with it, while it can be used.
  app.get('/api/offers/:code', { schema: { params: OfferCodeParams, response: withErrors({ 200: PublicOffer }) } }, async (request) => {
    const offer = await offers.find(await request.viewer(), request.params.code);
    if (!offer) throw notFound(OFFER_NOT_VALID);
    return offer;
  });

  app.get(
    '/api/admin/offers',
    { config: staff, schema: { querystring: OffersQuery, response: withErrors({ 200: z.array(OfferView) }) } },
    async (request, reply) => arrayPage(request, reply, await offersAdmin.list(await request.viewer(), request.query)),
  );

  app.post(
    '/api/admin/offers',
    { config: staff, schema: { body: OfferInput, response: withErrors({ 201: OfferView }) } },
    async (request, reply) => reply.status(201).send(await offersAdmin.create(await request.viewer(), request.body)),
  );

  app.post(
    '/api/admin/offers/:id/end',
    { config: staff, schema: { params: OfferParams, response: withErrors({ 200: OfferView }) } },
    async (request) => offersAdmin.end(await request.viewer(), request.params.id),
  );

  app.get('/api/admin/trials', { config: staff, schema: { response: withErrors({ 200: TrialSettings }) } }, async (request) =>
    offersAdmin.trials(await request.viewer()),
  );

  app.put(
    '/api/admin/trials',
    { config: staff, schema: { body: TrialSettings, response: withErrors({ 200: TrialSettings }) } },
    async (request) => offersAdmin.setTrials(await request.viewer(), request.body),
  );

  // The billing page's data: the plan, its trial and offer, and the invoices.
  app.get('/api/billing/overview', { config: member, schema: { response: withErrors({ 200: BillingOverview }) } }, async (request) =>
    billing.overview(await request.viewer()),
  );

  app.get(
    '/api/billing/subscription',
    { config: member, schema: { response: withErrors({ 200: SubscriptionResponse }) } },
    async (request) => billing.subscription(await request.viewer()),
  );

  app.get('/api/billing/invoices', { config: member, schema: { response: withErrors({ 200: InvoiceList }) } }, async (request) =>
    billing.invoices(await request.viewer()),
  );

  app.post('/api/billing/portal', { config: member, schema: { response: withErrors({ 200: UrlResponse }) } }, async (request) =>
    billing.portal(await request.viewer()),
  );

  app.post(
    '/api/billing/subscription/plan',
    { config: member, schema: { body: CheckoutInput, response: withErrors({ 200: SubscriptionView }) } },
    async (request) => billing.changePlan(await request.viewer(), request.body),
  );

  app.post(
    '/api/billing/subscription/cancel',
    { config: member, schema: { response: withErrors({ 200: SubscriptionView }) } },
    async (request) => billing.cancelAtPeriodEnd(await request.viewer()),
  );

  app.post(
    '/api/billing/subscription/resume',
    { config: member, schema: { response: withErrors({ 200: SubscriptionView }) } },
    async (request) => billing.resume(await request.viewer()),
  );

  app.get('/api/admin/billing/revenue', { config: staff, schema: { response: withErrors({ 200: Revenue }) } }, async (request) =>
    billingAdmin.revenue(await request.viewer()),
  );

  app.post(
    '/api/admin/members/:id/refund',
    { config: staff, schema: { params: RefundParams, response: withErrors({ 200: RefundResponse }) } },
    async (request) => billingAdmin.refundFirstSubscription(await request.viewer(), request.params.id),
  );

  // Stripe signs the exact bytes it sends, so this route alone reads its body raw, whatever its type.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post('/api/billing/webhook', { schema: { response: withErrors({ 200: WebhookAnswer }) } }, async (request, reply) => {
      if (!billing.webhooks) return reply.status(503).send({ detail: 'Payments are not enabled on this site.' });
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return billing.webhooks.receive(body, typeof signature === 'string' ? signature : undefined);
    });
  });
}
