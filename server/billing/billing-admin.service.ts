import type Stripe from 'stripe';
import { hasEnded, type BillingAdminService, type Revenue } from '../../common/billing.contract.ts';
import { conflict, notFound } from '../../common/errors.ts';
import { MONEY_BACK_DAYS } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import type { SubscriptionRow } from './billing.repository.ts';
import { planOf, stripeFor, subscriptionView } from './billing-views.ts';
import { isStripeError, type StripeGateway } from './stripe-gateway.ts';
import { stripeId, syncSubscription, type SyncDependencies } from './subscription-sync.ts';

// The owners' side of billing: the money-back guarantee and the revenue figures.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The payment intents that paid an invoice (newer API versions list them under `payments`). */
function paymentIntentsOf(invoice: Stripe.Invoice): string[] {
  return (invoice.payments?.data ?? [])
    .filter((payment) => payment.status === 'paid' && payment.payment.payment_intent)
    .map((payment) => stripeId(payment.payment.payment_intent!));
}

export function createBillingAdminService(deps: {
  data: DataAccess;
  gateway: StripeGateway | undefined;
  mailer: Mailer;
  log: SyncDependencies['log'];
}): BillingAdminService {
  const { data, mailer } = deps;

  /** Refunds every payment made on the subscription; answers the total refunded, before or now. */
  async function refundEveryPayment(stripe: Stripe, subscription: SubscriptionRow, memberId: string): Promise<number> {
    let refunded = 0;
    const invoices = await stripe.invoices.list({ subscription: subscription.id, status: 'paid', limit: 100, expand: ['data.payments'] });
    for (const invoice of invoices.data) {
      for (const paymentIntent of paymentIntentsOf(invoice)) {
        try {
          const refund = await stripe.refunds.create(
            {
              payment_intent: paymentIntent,
              reason: 'requested_by_customer',
              metadata: { member_id: memberId, subscription: subscription.id },
            },
            { idempotencyKey: `realtypocket-refund-${paymentIntent}` },
          );
          refunded += refund.amount;
        } catch (error) {
          if (!isStripeError(error, 'charge_already_refunded')) throw error;
          const earlier = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
          refunded += earlier.data
            .filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled')
            .reduce((sum, refund) => sum + refund.amount, 0);
        }
      }
    }
    return refunded;
  }

  return {
    async refundFirstSubscription(viewer, memberId) {
      const staff = requireStaffArea(viewer, 'billing');
      const { stripe, sync } = stripeFor(deps);
      const account = await data.members.findAccount({ id: memberId });
      if (!account) throw notFound('Member not found');
      // Checkouts that were never paid do not count as subscribing.
      const history = (await data.billing.subscriptionsOf(memberId)).filter(
        (row) => row.status !== 'incomplete' && row.status !== 'incomplete_expired',
      );
      const first = history[0];
      if (!first) throw conflict('This member has no subscription to refund.');
      if (history.length > 1)
        throw conflict(`The ${MONEY_BACK_DAYS}-day money-back guarantee is for first-time subscribers: this member has subscribed before.`);
      if (first.refundedAt && hasEnded(first.status)) {
        throw conflict(`This subscription was already refunded on ${first.refundedAt.toISOString().slice(0, 10)}.`);
      }
      const ageMs = Date.now() - first.startedAt.getTime();
      if (!first.refundedAt && ageMs > MONEY_BACK_DAYS * DAY_MS) {
        throw conflict(
          `The money-back guarantee covers the first ${MONEY_BACK_DAYS} days: this subscription started on ${first.startedAt.toISOString().slice(0, 10)}, ${Math.floor(ageMs / DAY_MS)} days ago.`,
        );
      }

      // The money first, recorded at once; then the subscription ends. A retry after a failure
      // half-way refunds nothing twice (each refund has its own idempotency key, and a payment
      // refunded before is counted from Stripe's own list) and finishes the cancellation.
      if (!first.refundedAt) {
        const refundedCents = await refundEveryPayment(stripe, first, memberId);
        await data.transaction(async (tx) => {
          await tx.billing.markRefunded(first.id, refundedCents);
          await tx.audit.record({
            actorEmail: staff.email,
            action: 'billing.refund',
            target: account.email,
            oldValue: planOf(first),
            newValue: `refunded ${(refundedCents / 100).toFixed(2)} ${first.currency.toUpperCase()} and canceled`,
          });
        });
      }
      if (!hasEnded(first.status)) {
        try {
          await stripe.subscriptions.cancel(first.id, { invoice_now: false, prorate: false });
        } catch (error) {
          if (!isStripeError(error, 'resource_missing')) throw error;
        }
      }
      await data.transaction((tx) => syncSubscription(tx, sync, first.id, { memberId, actor: staff.email }));
      mailer.nudge();
      const saved = (await data.billing.findSubscription(first.id)) ?? first;
      return { refunded_cents: saved.refundedCents ?? 0, subscription: subscriptionView(saved) };
    },

    async revenue(viewer): Promise<Revenue> {
      requireStaffArea(viewer, 'billing');
      const rows = await data.billing.payingByPlan();
      let monthly = 0;
      for (const row of rows) monthly += row.period === 'yearly' ? row.amountCents / 12 : row.amountCents;
      return {
        active_by_plan: rows.map(({ tier, period, count }) => ({ tier, period, count })),
        active_count: rows.reduce((sum, row) => sum + row.count, 0),
        monthly_recurring_cents: Math.round(monthly),
        currency: rows[0]?.currency ?? 'usd',
      };
    },
  };
}
