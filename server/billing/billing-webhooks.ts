import type Stripe from 'stripe';
import { planName } from '../../common/billing.contract.ts';
import { badRequest, ServiceError } from '../../common/errors.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { STRIPE_ACTOR, stripeId, SubscriptionBusy, syncSubscription, type SyncDependencies } from './subscription-sync.ts';

/**
 * The subscription an invoice bills, if any. Stripe writes each event in the API version of its
 * webhook endpoint: older versions name it at the top level, newer ones under `parent`; an event
 * with neither is read again through the SDK, in the version the site speaks.
 */
async function subscriptionOfInvoice(deps: SyncDependencies, invoice: Stripe.Invoice): Promise<string | null> {
  const named =
    invoice.parent?.subscription_details?.subscription ?? (invoice as { subscription?: string | { id: string } | null }).subscription;
  if (named) return stripeId(named);
  if (invoice.parent !== undefined || !invoice.id) return null;
  const fresh = await deps.gateway.stripe.invoices.retrieve(invoice.id);
  const subscription = fresh.parent?.subscription_details?.subscription;
  return subscription ? stripeId(subscription) : null;
}

const fromStripe = { actor: STRIPE_ACTOR, waitForLock: false } as const;

/** A receipt after a payment, or a request to update the card after a failed one. */
async function mailAboutInvoice(tx: Repositories, deps: SyncDependencies, invoice: Stripe.Invoice, paid: boolean): Promise<void> {
  const subscriptionId = await subscriptionOfInvoice(deps, invoice);
  if (!subscriptionId) return;
  const row = await syncSubscription(tx, deps, subscriptionId, fromStripe);
  if (!row) return;
  // What it brought: an offer's revenue is the sum of its subscriptions' payments.
  if (paid && invoice.id && invoice.amount_paid > 0)
    await tx.offers.recordPayment({ invoiceId: invoice.id, subscriptionId, amountCents: invoice.amount_paid, currency: invoice.currency });
  if (!row.tier || !row.period) return;
  const account = await tx.members.findAccount({ id: row.memberId });
  if (!account) return;
  const plan = planName({ tier: row.tier, period: row.period });
  const billingUrl = deps.mailer.link('/account/billing');
  if (paid) {
    if (invoice.amount_paid <= 0) return; // nothing was charged (a fully credited proration)
    const mail = await mailTemplates.paymentReceipt({
      name: account.name,
      plan,
      amountCents: invoice.amount_paid,
      currency: invoice.currency,
      invoiceNumber: invoice.number ?? null,
      invoiceUrl: invoice.hosted_invoice_url ?? null,
      renewsOn: row.cancelAtPeriodEnd ? null : row.currentPeriodEnd,
      billingUrl,
    });
    await deps.mailer.queue(tx, 'billing-receipt', account.email, mail);
  } else {
    const mail = await mailTemplates.paymentFailed({
      name: account.name,
      plan,
      amountCents: invoice.amount_due,
      currency: invoice.currency,
      billingUrl,
    });
    await deps.mailer.queue(tx, 'billing-payment-failed', account.email, mail);
  }
}

/**
 * Stripe's webhook: verifies the signature over the exact bytes received, then handles each event
 * once (its id is stored in the same transaction as its effects), whatever the number of
 * deliveries or processes. A failure answers 500, so Stripe delivers the event again later.
 */
export function createWebhookHandler(data: DataAccess, deps: SyncDependencies) {
  async function handle(tx: Repositories, event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode !== 'subscription' || !session.subscription) return;
        await syncSubscription(tx, deps, stripeId(session.subscription), { ...fromStripe, memberId: session.client_reference_id });
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await syncSubscription(tx, deps, event.data.object.id, fromStripe);
        return;
      case 'invoice.paid':
        await mailAboutInvoice(tx, deps, event.data.object, true);
        return;
      case 'invoice.payment_failed':
        await mailAboutInvoice(tx, deps, event.data.object, false);
        return;
      default:
      // Acknowledged, so Stripe stops sending it; the site has nothing to do with it.
    }
  }

  return {
    /** Verifies and handles one delivery; a missing or wrong signature is a 400 that changes nothing. */
    async receive(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
      if (!signature) throw badRequest('Missing Stripe-Signature header.');
      let event: Stripe.Event;
      try {
        event = deps.gateway.stripe.webhooks.constructEvent(rawBody, signature, deps.gateway.webhookSecret);
      } catch {
        throw badRequest('The Stripe signature does not match this request.');
      }
      let fresh: boolean;
      try {
        fresh = await data.transaction(async (tx) => {
          if (!(await tx.billing.recordEvent(event.id, event.type))) return false;
          await handle(tx, event);
          return true;
        });
      } catch (error) {
        // Nothing was kept (the event's id included): Stripe delivers it again in a while.
        if (error instanceof SubscriptionBusy)
          throw new ServiceError(503, 'This subscription is being updated; please deliver the event again.');
        throw error;
      }
      if (fresh) deps.mailer.nudge();
      return { received: true, duplicate: !fresh };
    },
  };
}

export type WebhookHandler = ReturnType<typeof createWebhookHandler>;
