import type Stripe from 'stripe';
import { BILLING_OFF, givesAccess, planName, type InvoiceView, type SubscriptionView } from '../../common/billing.contract.ts';
import { ServiceError } from '../../common/errors.ts';
import type { SubscriptionRow } from './billing.repository.ts';
import type { StripeGateway } from './stripe-gateway.ts';
import type { SyncDependencies } from './subscription-sync.ts';

// What the members' billing and the owners' share: how a subscription and an invoice are shown,
// and Stripe, when billing is on.

export function subscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    tier: row.tier,
    period: row.period,
    status: row.status,
    amount_cents: row.amountCents,
    currency: row.currency,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    current_period_end: row.currentPeriodEnd.toISOString(),
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    refunded_at: row.refundedAt?.toISOString() ?? null,
    trial_ends_at: row.status === 'trialing' && row.trialEndsAt ? row.trialEndsAt.toISOString() : null,
    gives_access: givesAccess(row.status),
  };
}

export function invoiceView(invoice: Stripe.Invoice): InvoiceView {
  return {
    id: invoice.id!,
    number: invoice.number ?? null,
    status: invoice.status ?? 'draft',
    amount_cents: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency,
    created_at: new Date(invoice.created * 1000).toISOString(),
    url: invoice.hosted_invoice_url ?? null,
    pdf_url: invoice.invoice_pdf ?? null,
  };
}

/** The plan's name for the activity log ('Gold (monthly)'), or Stripe's price id for a plan the site does not sell. */
export const planOf = (row: SubscriptionRow) => (row.tier && row.period ? planName({ tier: row.tier, period: row.period }) : row.priceId);

/** Stripe and what syncing a subscription needs; a 503 when billing is off. */
export function stripeFor(deps: { gateway: StripeGateway | undefined } & Omit<SyncDependencies, 'gateway'>) {
  const { gateway } = deps;
  if (!gateway) throw new ServiceError(503, BILLING_OFF);
  const sync: SyncDependencies = { gateway, mailer: deps.mailer, log: deps.log };
  return { gateway, stripe: gateway.stripe, sync };
}
