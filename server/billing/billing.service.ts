import type Stripe from 'stripe';
import {
  givesAccess,
  hasEnded,
  planName,
  type BillingService,
  type InvoiceView,
  type Plan,
  type SubscriptionView,
} from '../../common/billing.contract.ts';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { OFFER_NOT_VALID, offerLabel, offerNotForPlan } from '../../common/offers.contract.ts';
import { offerUsable, trialsOf } from './offers-admin.service.ts';
import type { SignedInMember } from '../../common/viewer.ts';
import { requireMember } from '../../common/policies.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import type { SubscriptionRow } from './billing.repository.ts';
import { createWebhookHandler, type WebhookHandler } from './billing-webhooks.ts';
import { invoiceView, planOf, stripeFor, subscriptionView } from './billing-views.ts';
import { isInvalidRequest, isStripeError, type StripeGateway } from './stripe-gateway.ts';
import { STRIPE_ACTOR, syncSubscription, type SyncDependencies } from './subscription-sync.ts';
import { BILLING_REFRESH_LIMIT, CHECKOUT_LIMIT, SHOWN } from '../../common/limits.ts';

const NO_PAID_PLAN = 'You do not have a paid membership. Choose a plan on the pricing page.';
const SAME_PLAN = 'You already have this plan.';

/** The members' billing, and what the server itself needs of it (the owners' side is billing-admin.service.ts). */
export interface ServerBillingService extends BillingService {
  /** Stripe's webhook deliveries; undefined when billing is off. */
  readonly webhooks: WebhookHandler | undefined;
  /** Ends the member's subscriptions at once, before their account is deleted. */
  endSubscriptionsOf(memberId: string): Promise<void>;
  /** Stripe's receipts follow the member to their new address. */
  emailChanged(memberId: string, email: string): Promise<void>;
}

export function createBillingService(deps: {
  data: DataAccess;
  gateway: StripeGateway | undefined;
  mailer: Mailer;
  limiter: AttemptLimiter;
  log: SyncDependencies['log'];
}): ServerBillingService {
  const { data, gateway, mailer } = deps;

  const stripeOf = () => stripeFor(deps);

  const currentOf = async (memberId: string) => (await data.billing.currentOf([memberId])).get(memberId) ?? null;

  /** The member's subscription that gives access now, or a 409 saying there is none. */
  async function paidSubscription(member: SignedInMember): Promise<SubscriptionRow> {
    const current = await currentOf(member.id);
    if (!current || !givesAccess(current.status)) throw conflict(NO_PAID_PLAN);
    return current;
  }

  /** The member's Stripe customer, created once (the idempotency key makes racing requests share one). */
  async function customerOf(member: SignedInMember, stripe: Stripe): Promise<string> {
    const account = await data.members.findAccount({ id: member.id });
    if (!account) throw notFound('Member not found');
    if (account.stripeCustomerId) return account.stripeCustomerId;
    const customer = await stripe.customers.create(
      { email: account.email, name: account.name, metadata: { member_id: member.id } },
      { idempotencyKey: `realtypocket-customer-${member.id}` },
    );
    return (await data.members.linkStripeCustomer(member.id, customer.id)) ?? customer.id;
  }

  /** Closes the customer's unpaid checkout pages, so two tabs can never start two subscriptions. */
  async function expireOpenCheckouts(stripe: Stripe, customer: string): Promise<void> {
    const open = await stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 });
    for (const session of open.data) {
      try {
        await stripe.checkout.sessions.expire(session.id);
      } catch (error) {
        // Paid or expired a moment ago: the webhook tells the rest.
        if (!isInvalidRequest(error)) throw error;
      }
    }
  }

  /** Applies a change in Stripe, then stores the subscription as Stripe now has it, with an audit entry. */
  async function changeSubscription(
    member: SignedInMember,
    row: SubscriptionRow,
    change: Stripe.SubscriptionUpdateParams,
    audit: { action: string; oldValue: unknown; newValue: unknown },
  ): Promise<SubscriptionView> {
    const { stripe, sync } = stripeOf();
    await stripe.subscriptions.update(row.id, change);
    const saved = await data.transaction(async (tx) => {
      const synced = await syncSubscription(tx, sync, row.id, { memberId: member.id, actor: member.email });
      await tx.audit.record({ actorEmail: member.email, target: member.email, ...audit });
      return synced;
    });
    mailer.nudge();
    return subscriptionView(saved ?? row);
  }

  /** The offer a code names, if it can be used now and is for this plan; else a 400 that says why. */
  async function usableOffer(code: string, plan: Plan) {
    const offer = await data.offers.findByCode(code);
    const uses = offer ? ((await data.offers.usesOf([offer.id])).get(offer.id)?.uses ?? 0) : 0;
    if (!offer || !offerUsable(offer, uses)) throw badRequest(OFFER_NOT_VALID, 'offer');
    if (!offer.plans.includes(`${plan.tier}_${plan.period}`)) throw badRequest(offerNotForPlan(planName(plan)), 'offer');
    return offer;
  }

  async function invoicesOf(member: SignedInMember): Promise<InvoiceView[]> {
    const { stripe } = stripeOf();
    const account = await data.members.findAccount({ id: member.id });
    if (!account?.stripeCustomerId) return [];
    const invoices = await stripe.invoices.list({ customer: account.stripeCustomerId, limit: SHOWN.invoices });
    return invoices.data.filter((invoice) => invoice.status !== 'draft').map(invoiceView);
  }

  return {
    enabled: gateway !== undefined,
    webhooks: gateway ? createWebhookHandler(data, { gateway, mailer, log: deps.log }) : undefined,

    async checkout(viewer, plan) {
      const member = requireMember(viewer);
      await deps.limiter.check('checkout', member.id, CHECKOUT_LIMIT);
      const { gateway: stripeGateway, stripe } = stripeOf();
      const current = await currentOf(member.id);
      if (current && givesAccess(current.status)) {
        if (current.tier === plan.tier && current.period === plan.period) throw conflict(SAME_PLAN);
        throw conflict('You already have a paid membership. Change your plan on your billing page.');
      }
      const offer = plan.offer ? await usableOffer(plan.offer, { tier: plan.tier, period: plan.period }) : null;
      // The tier's free trial, for an account that never had one.
      const trialDays = (await trialsOf(data))[plan.tier];
      const trial = trialDays > 0 && !(await data.offers.trialUsed(member.id)) ? trialDays : 0;
      const price = await stripeGateway.priceFor(plan);
      const customer = await customerOf(member, stripe);
      await expireOpenCheckouts(stripe, customer);
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: member.id,
        line_items: [{ price: price.id, quantity: 1 }],
        ...(offer && { discounts: [{ promotion_code: offer.stripePromotionCodeId }] }),
        subscription_data: {
          metadata: { member_id: member.id, ...(offer && { offer_id: offer.id }) },
          ...(trial > 0 && { trial_period_days: trial }),
        },
        metadata: { member_id: member.id, tier: plan.tier, period: plan.period },
        success_url: mailer.link('/dashboard', { checkout: 'success' }),
        cancel_url: mailer.link('/pricing'),
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { url: session.url };
    },

    async subscription(viewer) {
      const current = await currentOf(requireMember(viewer).id);
      return current && !hasEnded(current.status) ? subscriptionView(current) : null;
    },

    async overview(viewer) {
      const member = requireMember(viewer);
      const [current, account] = await Promise.all([currentOf(member.id), data.members.findAccount({ id: member.id })]);
      const live = current && !hasEnded(current.status) ? current : null;
      const offer = live?.offerId ? await data.offers.find(live.offerId) : null;
      return {
        enabled: gateway !== undefined,
        subscription: live ? subscriptionView(live) : null,
        offer: offer && { code: offer.code, label: offerLabel(offer) },
        complimentary_tier: account?.complimentaryTier ?? null,
        // The plan shows even while Stripe cannot be reached; only the invoice list waits for it.
        invoices:
          gateway && account?.stripeCustomerId
            ? await invoicesOf(member).catch((error: unknown) => {
                deps.log.warn({ err: error }, 'could not list the invoices from Stripe');
                return [];
              })
            : [],
      };
    },

    invoices: (viewer) => invoicesOf(requireMember(viewer)),

    async refresh(viewer) {
      const member = requireMember(viewer);
      if (!gateway) return;
      // Only while the payment's events have not arrived yet, and not more often than Stripe should be asked.
      const current = await currentOf(member.id);
      if (current && givesAccess(current.status)) return;
      const account = await data.members.findAccount({ id: member.id });
      if (!account?.stripeCustomerId) return;
      await deps.limiter.check('billing-refresh', member.id, BILLING_REFRESH_LIMIT);
      const { stripe, sync } = stripeOf();
      const listed = await stripe.subscriptions.list({ customer: account.stripeCustomerId, status: 'all', limit: 3 });
      for (const subscription of listed.data) {
        await data.transaction((tx) => syncSubscription(tx, sync, subscription.id, { memberId: member.id, actor: STRIPE_ACTOR }));
      }
      mailer.nudge();
    },

    async portal(viewer) {
      const member = requireMember(viewer);
      const { stripe } = stripeOf();
      const account = await data.members.findAccount({ id: member.id });
      if (!account?.stripeCustomerId) throw conflict('You have no payment details with us yet. Choose a plan on the pricing page first.');
      const session = await stripe.billingPortal.sessions.create({
        customer: account.stripeCustomerId,
        return_url: mailer.link('/account/billing'),
      });
      return { url: session.url };
    },

    async changePlan(viewer, plan) {
      const member = requireMember(viewer);
      const { gateway: stripeGateway, stripe } = stripeOf();
      const row = await paidSubscription(member);
      if (row.tier === plan.tier && row.period === plan.period) throw conflict(SAME_PLAN);
      const price = await stripeGateway.priceFor(plan);
      const item = (await stripe.subscriptions.retrieve(row.id)).items.data[0];
      if (!item) throw new Error(`Stripe subscription ${row.id} has no items`);
      return changeSubscription(
        member,
        row,
        // The difference is charged (or credited) now, and the new plan applies only once it is paid.
        { items: [{ id: item.id, price: price.id }], proration_behavior: 'always_invoice', payment_behavior: 'pending_if_incomplete' },
        { action: 'billing.plan_change', oldValue: planOf(row), newValue: planName(plan) },
      );
    },

    async cancelAtPeriodEnd(viewer) {
      const member = requireMember(viewer);
      stripeOf();
      const row = await paidSubscription(member);
      if (row.cancelAtPeriodEnd) return subscriptionView(row);
      return changeSubscription(
        member,
        row,
        { cancel_at_period_end: true },
        { action: 'billing.cancel', oldValue: planOf(row), newValue: `ends ${row.currentPeriodEnd.toISOString().slice(0, 10)}` },
      );
    },

    async resume(viewer) {
      const member = requireMember(viewer);
      const { stripe } = stripeOf();
      const row = await paidSubscription(member);
      if (!row.cancelAtPeriodEnd) throw conflict('Your membership is not set to end: there is nothing to resume.');
      // Ended by the flag (this site) or by a date (the customer portal): undo whichever it is.
      const subscription = await stripe.subscriptions.retrieve(row.id);
      const undo: Stripe.SubscriptionUpdateParams = subscription.cancel_at_period_end ? { cancel_at_period_end: false } : { cancel_at: '' };
      return changeSubscription(member, row, undo, { action: 'billing.resume', oldValue: 'ending', newValue: planOf(row) });
    },

    async emailChanged(memberId, email) {
      const account = await data.members.findAccount({ id: memberId });
      if (!gateway || !account?.stripeCustomerId) return;
      try {
        await gateway.stripe.customers.update(account.stripeCustomerId, { email });
      } catch (error) {
        // The change of address stands; Stripe's copy is corrected at the next change.
        deps.log.warn({ err: error }, 'could not update the email of a Stripe customer');
      }
    },

    async endSubscriptionsOf(memberId) {
      if (!gateway) return;
      const account = await data.members.findAccount({ id: memberId });
      if (!account?.stripeCustomerId) return;
      // Stripe's own list, not the site's copy: a subscription whose events have not arrived yet ends too.
      await expireOpenCheckouts(gateway.stripe, account.stripeCustomerId);
      const listed = await gateway.stripe.subscriptions.list({ customer: account.stripeCustomerId, status: 'all', limit: 100 });
      for (const subscription of listed.data) {
        if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') continue;
        try {
          await gateway.stripe.subscriptions.cancel(subscription.id);
        } catch (error) {
          if (!isStripeError(error, 'resource_missing')) throw error;
        }
      }
    },
  };
}
