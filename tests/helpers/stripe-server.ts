/**
 * A local Stripe for tests: an HTTP server that speaks enough of Stripe's v1 REST API (form-encoded
 * bodies with bracket notation, JSON objects, lists and errors) for the site's billing code to run
 * against the real `stripe` SDK, plus a hosted-checkout page a browser can pay on, a customer-portal
 * page and signed webhook delivery. Everything lives in memory and dies with `close()`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import Stripe from 'stripe';

/** Stripe objects as tests read them: deep JSON whose exact shape each assertion knows. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests dig freely into nested Stripe shapes
type StripeJson = any;

export interface FakeStripe {
  /** e.g. http://127.0.0.1:43123 — what the site's STRIPE_API_BASE setting is set to */
  url: string;
  secretKey: string; // 'sk_test_fake_...'
  webhookSecret: string; // 'whsec_...'
  /** Where webhook events are POSTed (the site's /api/billing/webhook), set after the site starts. */
  setWebhookTarget(url: string): void;
  /** Every API call received, in order: method, path (no query string), parsed body/query params. */
  calls: { method: string; path: string; params: Record<string, unknown>; idempotencyKey?: string }[];
  /** Every webhook event POSTed to the target, in order, with the status the target answered. */
  events: { type: string; event: StripeJson; status: number }[];
  /** Current state, for assertions. */
  state: {
    products: Map<string, StripeJson>;
    prices: Map<string, StripeJson>;
    customers: Map<string, StripeJson>;
    checkoutSessions: Map<string, StripeJson>;
    subscriptions: Map<string, StripeJson>;
    invoices: Map<string, StripeJson>;
    refunds: Map<string, StripeJson>;
    paymentIntents: Map<string, StripeJson>;
    charges: Map<string, StripeJson>;
    /** Deleted coupons leave this map (the discounts made from them stay). */
    coupons: Map<string, StripeJson>;
    promotionCodes: Map<string, StripeJson>;
    /** Discounts made when a checkout with a coupon or promotion code completes, also once ended. */
    discounts: Map<string, StripeJson>;
  };
  /**
   * Completes a checkout session as if the customer paid: creates the subscription (status active,
   * current period now..+1 interval of the price, metadata copied from subscription_data.metadata), a
   * paid invoice with a charge/payment_intent, marks the session complete with `subscription` and
   * `customer` set, then POSTs signed webhook events in this order: checkout.session.completed,
   * customer.subscription.created, invoice.paid (throwing if the target answers other than 2xx).
   * With subscription_data.trial_period_days the subscription is 'trialing', its current period is the
   * trial (trial_start..trial_end) and its first invoice is paid at 0 with no payment. With a discount
   * (`discounts` on the session, or `promotionCode`: a code the customer types, which the session must
   * allow with allow_promotion_codes) the subscription holds a Discount (`discounts`), the invoices
   * apply it, and the coupon's and promotion code's times_redeemed go up by one.
   * Returns the subscription.
   */
  completeCheckout(sessionId: string, options?: { sendWebhooks?: boolean; promotionCode?: string }): Promise<StripeJson>;
  /**
   * What Stripe does when a period ends: a subscription set to cancel at period end is canceled
   * (customer.subscription.deleted); any other active or trialing one becomes active, gets a new paid
   * invoice (the items at full price, less a discount while it lasts, plus prorations made with
   * create_prorations) and its next period (invoice.paid, then customer.subscription.updated). A discount
   * that no longer applies (a `once` coupon already used on a paid invoice, a `repeating` one whose
   * months have run out) leaves `subscription.discounts` then. Returns the subscription.
   */
  renewSubscription(id: string, options?: { sendWebhooks?: boolean }): Promise<StripeJson>;
  /**
   * A trial that ends with no payment method (Stripe's trial_settings.end_behavior.missing_payment_method):
   * 'cancel' (the default) cancels the subscription at trial_end (customer.subscription.deleted); 'pause'
   * pauses it (customer.subscription.paused, then customer.subscription.updated). Returns the subscription.
   */
  endTrialWithoutPayment(id: string, options?: { behavior?: 'cancel' | 'pause'; sendWebhooks?: boolean }): Promise<StripeJson>;
  /**
   * Events that Stripe sends on its own after an API call (today: customer.subscription.updated when
   * subscriptions.update changes a quantity, and invoice.paid for its always_invoice invoice) go out
   * after the answer, in the background, as Stripe's do. This waits until they have been delivered and
   * throws the first refusal by the webhook target. Nothing is sent while no webhook target is set.
   */
  webhooksSettled(): Promise<void>;
  /** Builds an event {id:'evt_...', object:'event', type, created, data:{object}, api_version, livemode:false}, signs it and POSTs it to the webhook target; returns the target's Response. */
  sendEvent(type: string, object: unknown, options?: EventOptions): Promise<Response>;
  /** Builds a signed event without sending it: { payload: string, signature: string, event }. */
  signedEvent(type: string, object: unknown, options?: EventOptions): { payload: string; signature: string; event: StripeJson };
  /** Changes a subscription in the fake's state (status, cancel_at_period_end, current period, price) and returns it; does not send events. */
  updateSubscriptionState(id: string, changes: Record<string, unknown>): StripeJson;
  close(): Promise<void>;
}

interface EventOptions {
  id?: string;
  created?: number;
  /** Goes to data.previous_attributes, as on Stripe's *.updated events. */
  previous_attributes?: Record<string, unknown>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const fake = new FakeStripeServer();
  await fake.listen();
  return fake;
}

// ---------------------------------------------------------------------------------------------
// Object shapes (the subset of Stripe's fields the fake fills in)

type Params = Record<string, unknown>;
type Metadata = Record<string, string>;
type Interval = 'day' | 'week' | 'month' | 'year';
const INTERVALS: readonly string[] = ['day', 'week', 'month', 'year'];

interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  total_count?: number;
}

interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  updated: number;
  livemode: false;
  name: string;
  description: string | null;
  metadata: Metadata;
  default_price: string | null;
  images: string[];
  url: string | null;
  type: 'service';
}

interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: { interval: Interval; interval_count: number; meter: null; usage_type: 'licensed'; trial_period_days: null } | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'recurring' | 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

type CouponDuration = 'once' | 'repeating' | 'forever';

interface Coupon {
  id: string;
  object: 'coupon';
  amount_off: number | null;
  /* applies_to is kept apart (couponAppliesTo): Stripe shows it only when expanded. */
  created: number;
  currency: string | null;
  duration: CouponDuration;
  duration_in_months: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Metadata;
  name: string | null;
  percent_off: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  /** False once redeem_by has passed or max_redemptions is reached. */
  valid: boolean;
}

interface PromotionCode {
  id: string;
  object: 'promotion_code';
  /** Set false by an update, or by Stripe when its coupon is no longer valid or is deleted. */
  active: boolean;
  code: string;
  created: number;
  customer: string | null;
  customer_account: null;
  expires_at: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Metadata;
  promotion: { type: 'coupon'; coupon: string };
  restrictions: { first_time_transaction: boolean; minimum_amount: null; minimum_amount_currency: null };
  times_redeemed: number;
}

/** A coupon applied to a subscription; Stripe has no endpoint for it, only expansion. */
interface Discount {
  id: string;
  object: 'discount';
  checkout_session: string | null;
  customer: string;
  customer_account: null;
  /** For a repeating coupon, when it stops applying; null for once and forever. */
  end: number | null;
  invoice: null;
  invoice_item: null;
  promotion_code: string | null;
  source: { type: 'coupon'; coupon: string };
  start: number;
  subscription: string | null;
  subscription_item: null;
}

/** What a discount keeps that Stripe does not show: the coupon as it was redeemed, and whether a once coupon is used up. */
interface DiscountDetails {
  coupon: Coupon;
  appliesTo: string[] | null;
  consumed: boolean;
}

interface Customer {
  id: string;
  object: 'customer';
  address: null;
  balance: number;
  created: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: { custom_fields: null; default_payment_method: null; footer: null; rendering_options: null };
  livemode: false;
  metadata: Metadata;
  name: string | null;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  allow_promotion_codes: boolean | null;
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_details: { email: string | null; name: string | null; address: null; phone: null; tax_exempt: 'none'; tax_ids: [] } | null;
  customer_email: string | null;
  discounts: { coupon: string | null; promotion_code: string | null }[];
  expires_at: number;
  invoice: string | null;
  livemode: false;
  metadata: Metadata;
  mode: 'subscription';
  payment_intent: null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string | null;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: 'hosted';
  url: string | null;
}

/** A checkout line item (`object: 'item'`), only shown when expanded. */
interface LineItem {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

/** What a session keeps that Stripe does not show on the session object itself. */
interface SessionDetails {
  lineItems: LineItem[];
  subscriptionMetadata: Metadata;
  trialPeriodDays: number | null;
  discount: { coupon: string; promotionCode: string | null } | null;
}

interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_start: number;
  current_period_end: number;
  discounts: string[];
  metadata: Metadata;
  price: Price;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

type SubscriptionStatus = 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';
const SUBSCRIPTION_STATUSES: readonly string[] = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
];

interface Subscription {
  id: string;
  object: 'subscription';
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  /** Stripe moved these onto the items; kept here too for convenience. */
  current_period_start: number;
  current_period_end: number;
  customer: string;
  default_payment_method: null;
  description: null;
  discounts: string[];
  ended_at: number | null;
  items: StripeList<SubscriptionItem>;
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  pending_update: null;
  schedule: null;
  start_date: number;
  status: SubscriptionStatus;
  trial_end: number | null;
  trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' | 'cancel' | 'pause' } };
  trial_start: number | null;
}

interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  /** What each of the invoice's discounts took off this line (the line's amount is before them). */
  discount_amounts: { amount: number; discount: string }[];
  discountable: boolean;
  discounts: string[];
  invoice: string;
  livemode: false;
  metadata: Metadata;
  parent: {
    type: 'subscription_item_details';
    invoice_item_details: null;
    subscription_item_details: { invoice_item: null; proration: boolean; subscription: string; subscription_item: string };
  };
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  /** Older API versions had the price here; kept for convenience. */
  price: Price;
  quantity: number;
}

/** An invoice line before it goes on an invoice. */
interface DraftLine {
  itemId: string;
  price: Price;
  quantity: number;
  amount: number;
  description: string;
  period: { start: number; end: number };
  proration: boolean;
}

interface Invoice {
  id: string;
  object: 'invoice';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** Older API versions; newer ones use `payments`. Both are filled in; null (and no payment) when nothing was due. */
  charge: string | null;
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  /** The subscription's discounts that applied to this invoice. */
  discounts: string[];
  hosted_invoice_url: string;
  invoice_pdf: string;
  lines: StripeList<InvoiceLine>;
  livemode: false;
  metadata: Metadata;
  number: string;
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { metadata: Metadata; subscription: string } };
  payment_intent: string | null;
  payments: StripeList<{
    id: string;
    object: 'invoice_payment';
    amount_paid: number;
    amount_requested: number;
    currency: string;
    invoice: string;
    is_default: boolean;
    payment: { type: 'payment_intent'; payment_intent: string };
    status: 'paid';
  }>;
  period_end: number;
  period_start: number;
  status: 'paid';
  status_transitions: { finalized_at: number; marked_uncollectible_at: null; paid_at: number; voided_at: null };
  /** Older API versions; newer ones use parent.subscription_details.subscription. Both are filled in. */
  subscription: string;
  subtotal: number;
  subtotal_excluding_tax: number;
  total: number;
  total_discount_amounts: { amount: number; discount: string }[];
  total_excluding_tax: number;
}

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  created: number;
  currency: string;
  customer: string;
  latest_charge: string;
  livemode: false;
  metadata: Metadata;
  status: 'succeeded';
}

interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  created: number;
  currency: string;
  customer: string;
  livemode: false;
  metadata: Metadata;
  paid: boolean;
  payment_intent: string;
  refunded: boolean;
  status: 'succeeded';
}

interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: null;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
}

interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  flow: null;
  livemode: false;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

// ---------------------------------------------------------------------------------------------
// Errors and parameter reading

/** Becomes Stripe's `{ error: { type, message, code, param } }` body with its HTTP status. */
class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(status: number, message: string, details: { type?: string; code?: string; param?: string } = {}) {
    super(message);
    this.status = status;
    this.type = details.type ?? 'invalid_request_error';
    this.code = details.code;
    this.param = details.param;
  }
}

const missingParam = (param: string) => new ApiError(400, `Missing required param: ${param}.`, { code: 'parameter_missing', param });
const invalidParam = (param: string, message: string, code?: string) => new ApiError(400, message, { param, code });
/** A referenced object that does not exist: 404 for the one in the path, 400 for one named in the body. */
const noSuch = (kind: string, id: string, param: string | undefined, status = param === 'id' ? 404 : 400) =>
  new ApiError(status, `No such ${kind}: '${id}'`, { code: 'resource_missing', param });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function optString(params: Params, key: string, name = key): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParam(name, `Invalid string: ${name} must be a string, not an object or array.`);
  return value;
}

function reqString(params: Params, key: string, name = key): string {
  const value = optString(params, key, name);
  if (value === undefined || value === '') throw missingParam(name);
  return value;
}

function optInt(params: Params, key: string, name = key): number | undefined {
  const value = optString(params, key, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw invalidParam(name, `Invalid integer: ${value}`, 'parameter_invalid_integer');
  return Number(value);
}

function optDecimal(params: Params, key: string, name = key): number | undefined {
  const value = optString(params, key, name);
  if (value === undefined) return undefined;
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw invalidParam(name, `Invalid decimal: ${value}`);
  return Number(value);
}

/** A unix timestamp that must lie ahead, as Stripe wants redeem_by and expires_at. */
function optFutureTimestamp(params: Params, key: string): number | undefined {
  const value = optInt(params, key);
  if (value !== undefined && value <= now()) throw invalidParam(key, `Invalid ${key}: must be in the future.`);
  return value;
}

function optBool(params: Params, key: string, name = key): boolean | undefined {
  const value = optString(params, key, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalidParam(name, `Invalid boolean: ${value}`);
  return value === 'true';
}

function optEnum<T extends string>(params: Params, key: string, allowed: readonly string[], name = key): T | undefined {
  const value = optString(params, key, name);
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) throw invalidParam(name, `Invalid ${name}: must be one of ${allowed.join(', ')}`);
  return value as T;
}

function optObject(params: Params, key: string, name = key): Params | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (value === '') return {}; // how Stripe's form encoding empties a hash
  if (!isRecord(value)) throw invalidParam(name, `Invalid object: ${name}`);
  return value;
}

function optArray(params: Params, key: string, name = key): unknown[] | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (value === '') return [];
  if (!Array.isArray(value)) throw invalidParam(name, `Invalid array: ${name}`);
  return value;
}

function optStringArray(params: Params, key: string, name = key): string[] | undefined {
  const value = optArray(params, key, name);
  if (value?.some((entry) => typeof entry !== 'string')) throw invalidParam(name, `Invalid array: ${name} must hold strings`);
  return value as string[] | undefined;
}

function optUrl(params: Params, key: string): string | undefined {
  const value = optString(params, key);
  if (value !== undefined && !URL.canParse(value)) throw invalidParam(key, `Not a valid URL: ${key}`, 'url_invalid');
  return value;
}

/** Stripe's metadata rules: string values, '' unsets a key, at most 50 keys of 40 characters, values of 500. */
function metadataParam(params: Params, key: string, existing: Metadata = {}, name = key): Metadata {
  const value = params[key];
  if (value === undefined) return { ...existing };
  if (value === '') return {};
  if (!isRecord(value)) throw invalidParam(name, `Invalid object: ${name}`);
  const result: Metadata = { ...existing };
  for (const [field, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw invalidParam(`${name}[${field}]`, `Invalid string: ${name}[${field}]`);
    if (field.length > 40) throw invalidParam(`${name}[${field}]`, 'Metadata keys can be at most 40 characters long.');
    if (entry.length > 500) throw invalidParam(`${name}[${field}]`, 'Metadata values can be at most 500 characters long.');
    if (entry === '') delete result[field];
    else result[field] = entry;
  }
  if (Object.keys(result).length > 50) throw invalidParam(name, 'Metadata can have at most 50 keys.');
  return result;
}

/**
 * Parses a form-encoded string with Stripe's bracket notation: `a[b]=1`, `a[0][c]=2`, `a[]=3`. Hashes
 * whose keys are all indexes become arrays (the SDK sends arrays as `a[0]`, `a[1]`), except metadata.
 */
function parseStripeForm(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    const segments = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)] : [rawKey];
    if (segments.includes('__proto__')) continue;
    let node = root;
    segments.forEach((segment, index) => {
      const key = segment === '' ? String(Object.keys(node).length) : segment; // `a[]` appends
      if (index === segments.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      node = isRecord(next) ? next : (node[key] = {});
    });
  }
  return normalizeArrays(root, '') as Params;
}

function normalizeArrays(value: unknown, key: string): unknown {
  if (!isRecord(value)) return value;
  const entries = Object.entries(value).map(([field, entry]) => [field, normalizeArrays(entry, field)] as const);
  if (key !== 'metadata' && entries.length > 0 && entries.every(([field]) => /^\d+$/.test(field))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, entry]) => entry);
  }
  return Object.fromEntries(entries);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomToken = (length: number) => [...randomBytes(length)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
const newId = (prefix: string) => `${prefix}_${randomToken(24)}`;
const now = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => structuredClone(value);

/** Adds whole intervals the way Stripe bills: Jan 31 + 1 month is Feb 28/29, not Mar 3. */
function addInterval(start: number, interval: Interval, count: number): number {
  if (interval === 'day') return start + count * 86_400;
  if (interval === 'week') return start + count * 7 * 86_400;
  const date = new Date(start * 1000);
  const months = interval === 'year' ? 12 * count : count;
  const target = new Date(
    Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** `1500, 'usd'` → `$15.00`, minding currencies without minor units. */
function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/**
 * What a coupon takes off each line: percent_off of every line it applies to (rounded per line), or
 * amount_off spread over those lines in proportion; never more than a line costs.
 */
function couponAmounts(coupon: Coupon, appliesTo: string[] | null, lines: { amount: number; product: string }[]): number[] {
  const eligible = lines.map((line) => line.amount > 0 && (!appliesTo || appliesTo.includes(line.product)));
  if (coupon.percent_off !== null) {
    return lines.map((line, index) => (eligible[index] ? Math.min(line.amount, Math.round((line.amount * coupon.percent_off!) / 100)) : 0));
  }
  const base = lines.reduce((sum, line, index) => sum + (eligible[index] ? line.amount : 0), 0);
  const off = Math.min(coupon.amount_off ?? 0, base);
  const last = eligible.lastIndexOf(true);
  let left = off;
  return lines.map((line, index) => {
    if (!eligible[index]) return 0;
    const share = index === last ? left : Math.floor((off * line.amount) / base);
    left -= share;
    return share;
  });
}

/** `25% off for 3 months`, `$5.00 off once`, as the checkout page shows a coupon. */
function describeCoupon(coupon: Coupon): string {
  const amount = coupon.percent_off !== null ? `${coupon.percent_off}% off` : `${formatAmount(coupon.amount_off!, coupon.currency!)} off`;
  if (coupon.duration === 'repeating')
    return `${amount} for ${coupon.duration_in_months} month${coupon.duration_in_months === 1 ? '' : 's'}`;
  return `${amount} ${coupon.duration}`;
}

const sumOf = (values: number[]) => values.reduce((total, value) => total + value, 0);

function describeInterval(price: Price): string {
  if (!price.recurring) return '';
  const { interval, interval_count: count } = price.recurring;
  return count === 1 ? ` per ${interval}` : ` every ${count} ${interval}s`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main>
${body}
</main></body>
</html>
`;
}

/** A one-page PDF whose text the project's `pdfText` helper can read (deflated stream, hex strings). */
function simplePdf(lines: string[]): Buffer {
  const text = lines.map((line) => `<${Buffer.from(line, 'latin1').toString('hex')}> Tj T*`).join('\n');
  const stream = zlib.deflateSync(Buffer.from(`BT\n/F1 12 Tf\n16 TL\n72 720 Td\n${text}\nET`, 'latin1'));
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  chunks.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(chunks);
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_000_000) request.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Params compared for idempotency regardless of key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// The server

interface ApiRequest {
  params: Params;
  /** The object id captured from the path, if the route has one. */
  id: string;
}

interface Route {
  method: string;
  pattern: RegExp;
  handle: (request: ApiRequest) => unknown;
}

interface StoredResponse {
  method: string;
  path: string;
  params: string;
  status: number;
  body: string;
}

type StateKind = keyof FakeStripeServer['state'];
type Stored<K extends StateKind> = FakeStripeServer['state'][K] extends Map<string, infer T> ? T : never;

/** How Stripe names each kind in "No such ..." errors. */
const OBJECT_NAMES: Record<StateKind, string> = {
  products: 'product',
  prices: 'price',
  customers: 'customer',
  checkoutSessions: 'checkout.session',
  subscriptions: 'subscription',
  invoices: 'invoice',
  refunds: 'refund',
  paymentIntents: 'payment_intent',
  charges: 'charge',
  coupons: 'coupon',
  promotionCodes: 'promotion code',
  discounts: 'discount',
};

class FakeStripeServer implements FakeStripe {
  url = '';
  readonly secretKey = `sk_test_fake_${randomToken(24)}`;
  readonly webhookSecret = `whsec_${randomToken(32)}`;
  /** The official SDK, only to sign webhook payloads exactly as Stripe's own test helpers do. */
  private readonly sdk = new Stripe(this.secretKey);
  readonly calls: FakeStripe['calls'] = [];
  readonly events: FakeStripe['events'] = [];
  readonly state = {
    products: new Map<string, Product>(),
    prices: new Map<string, Price>(),
    customers: new Map<string, Customer>(),
    checkoutSessions: new Map<string, CheckoutSession>(),
    subscriptions: new Map<string, Subscription>(),
    invoices: new Map<string, Invoice>(),
    refunds: new Map<string, Refund>(),
    paymentIntents: new Map<string, PaymentIntent>(),
    charges: new Map<string, Charge>(),
    coupons: new Map<string, Coupon>(),
    promotionCodes: new Map<string, PromotionCode>(),
    discounts: new Map<string, Discount>(),
  };
  private readonly sessionDetails = new Map<string, SessionDetails>();
  /** Coupons' applies_to[products] (null: every product), kept also after a coupon is deleted. */
  private readonly couponAppliesTo = new Map<string, string[] | null>();
  /** Deleted coupons, still shown where a discount or promotion code names them. */
  private readonly deletedCoupons = new Map<string, Coupon>();
  private readonly discountDetails = new Map<string, DiscountDetails>();
  /** Prorations made with create_prorations, billed on the subscription's next renewal. */
  private readonly pendingProrations = new Map<string, DraftLine[]>();
  /** Events an API call raised, sent in the background once it has been answered (see webhooksSettled). */
  private raisedEvents: { type: string; object: unknown; options: EventOptions }[] = [];
  private backgroundDeliveries: Promise<void> = Promise.resolve();
  private readonly backgroundErrors: Error[] = [];
  private readonly portalSessions = new Map<string, PortalSession>();
  private readonly idempotentResponses = new Map<string, StoredResponse>();
  private readonly server = http.createServer((request, response) => {
    this.handle(request, response).catch((error: unknown) => {
      const message = `FakeStripe failed: ${error instanceof Error ? error.stack : String(error)}`;
      if (response.headersSent) return response.end();
      // JSON for the SDK, and no retry: a bug in the fake will not go away by asking again.
      response.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
      response.end(JSON.stringify({ error: { type: 'api_error', message } }));
    });
  });
  private webhookTarget: string | undefined;

  private readonly routes: Route[] = [
    { method: 'GET', pattern: /^\/v1\/products$/, handle: ({ params }) => this.list('/v1/products', this.filterProducts(params), params) },
    { method: 'POST', pattern: /^\/v1\/products$/, handle: ({ params }) => this.respond(this.createProduct(params), params) },
    { method: 'GET', pattern: /^\/v1\/products\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('products', id), params) },
    {
      method: 'POST',
      pattern: /^\/v1\/products\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.updateProduct(id, params), params),
    },
    { method: 'GET', pattern: /^\/v1\/prices$/, handle: ({ params }) => this.list('/v1/prices', this.filterPrices(params), params) },
    { method: 'POST', pattern: /^\/v1\/prices$/, handle: ({ params }) => this.respond(this.createPrice(params), params) },
    { method: 'GET', pattern: /^\/v1\/prices\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('prices', id), params) },
    { method: 'POST', pattern: /^\/v1\/prices\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.updatePrice(id, params), params) },
    {
      method: 'GET',
      pattern: /^\/v1\/customers$/,
      handle: ({ params }) => this.list('/v1/customers', this.filterCustomers(params), params),
    },
    { method: 'POST', pattern: /^\/v1\/customers$/, handle: ({ params }) => this.respond(this.createCustomer(params), params) },
    { method: 'GET', pattern: /^\/v1\/customers\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('customers', id), params) },
    {
      method: 'POST',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.updateCustomer(id, params), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions$/,
      handle: ({ params }) => this.list('/v1/checkout/sessions', this.filterSessions(params), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions$/,
      handle: ({ params }) => this.respond(this.createCheckoutSession(params), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.need('checkoutSessions', id), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
      handle: ({ id, params }) => this.list(`/v1/checkout/sessions/${id}/line_items`, this.lineItems(id).toReversed(), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      handle: ({ id, params }) => this.respond(this.expireCheckoutSession(id), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions$/,
      handle: ({ params }) => this.list('/v1/subscriptions', this.filterSubscriptions(params), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.need('subscriptions', id), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.updateSubscription(id, params), params),
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.cancelSubscription(id), params),
    },
    { method: 'GET', pattern: /^\/v1\/invoices$/, handle: ({ params }) => this.list('/v1/invoices', this.filterInvoices(params), params) },
    { method: 'GET', pattern: /^\/v1\/invoices\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('invoices', id), params) },
    {
      method: 'GET',
      pattern: /^\/v1\/payment_intents\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.need('paymentIntents', id), params),
    },
    { method: 'GET', pattern: /^\/v1\/charges\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('charges', id), params) },
    { method: 'GET', pattern: /^\/v1\/refunds$/, handle: ({ params }) => this.list('/v1/refunds', this.filterRefunds(params), params) },
    { method: 'POST', pattern: /^\/v1\/refunds$/, handle: ({ params }) => this.respond(this.createRefund(params), params) },
    { method: 'GET', pattern: /^\/v1\/refunds\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('refunds', id), params) },
    {
      method: 'GET',
      pattern: /^\/v1\/coupons$/,
      handle: ({ params }) => this.list('/v1/coupons', [...this.state.coupons.values()], params),
    },
    { method: 'POST', pattern: /^\/v1\/coupons$/, handle: ({ params }) => this.respond(this.createCoupon(params), params) },
    { method: 'GET', pattern: /^\/v1\/coupons\/([^/]+)$/, handle: ({ id, params }) => this.respond(this.need('coupons', id), params) },
    {
      method: 'POST',
      pattern: /^\/v1\/coupons\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.updateCoupon(id, params), params),
    },
    { method: 'DELETE', pattern: /^\/v1\/coupons\/([^/]+)$/, handle: ({ id }) => this.deleteCoupon(id) },
    {
      method: 'GET',
      pattern: /^\/v1\/promotion_codes$/,
      handle: ({ params }) => this.list('/v1/promotion_codes', this.filterPromotionCodes(params), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/promotion_codes$/,
      handle: ({ params }) => this.respond(this.createPromotionCode(params), params),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/promotion_codes\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.need('promotionCodes', id), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/promotion_codes\/([^/]+)$/,
      handle: ({ id, params }) => this.respond(this.updatePromotionCode(id, params), params),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/billing_portal\/sessions$/,
      handle: ({ params }) => this.respond(this.createPortalSession(params), params),
    },
  ];

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections(); // the SDK keeps sockets alive; don't wait for them to idle out
    await closed;
  }

  setWebhookTarget(url: string): void {
    this.webhookTarget = url;
  }

  // -------------------------------------------------------------------------------------------
  // HTTP plumbing

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const body = await readBody(request);
    this.refreshCoupons();
    if (url.pathname.startsWith('/v1/')) this.handleApi(request, response, url, body);
    else await this.handlePage(request, response, url, body); // a form's body, for the checkout page
  }

  private handleApi(request: http.IncomingMessage, response: http.ServerResponse, url: URL, body: string): void {
    const method = request.method ?? 'GET';
    const params = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(body) };
    const idempotencyKey = request.headers['idempotency-key'];
    const key = typeof idempotencyKey === 'string' && idempotencyKey !== '' && method !== 'GET' ? idempotencyKey : undefined;
    this.calls.push({ method, path: url.pathname, params: clone(params), ...(key ? { idempotencyKey: key } : {}) });

    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': newId('req'),
      'stripe-version': String(request.headers['stripe-version'] ?? Stripe.API_VERSION),
      ...(key ? { 'idempotency-key': key } : {}),
    };
    const send = (status: number, json: string, extra: Record<string, string> = {}) => {
      response.writeHead(status, { ...headers, ...extra });
      response.end(json);
    };
    const sendError = (error: ApiError) => {
      const { type, message, code, param } = error;
      send(error.status, JSON.stringify({ error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } }, null, 2));
    };

    if (!this.authorized(request.headers.authorization)) {
      sendError(new ApiError(401, `Invalid API Key provided: ${String(request.headers.authorization ?? '(none)').slice(0, 24)}...`));
      return;
    }

    // Stripe replays the first response for a reused key, and refuses the key for a different request.
    const canonicalParams = canonical(params);
    const stored = key ? this.idempotentResponses.get(key) : undefined;
    if (stored) {
      if (stored.method !== method || stored.path !== url.pathname || stored.params !== canonicalParams) {
        sendError(
          new ApiError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            { type: 'idempotency_error' },
          ),
        );
      } else send(stored.status, stored.body, { 'idempotent-replayed': 'true' });
      return;
    }

    const matches = this.routes.map((route) => ({ route, match: route.pattern.exec(url.pathname) })).filter(({ match }) => match);
    const found = matches.find(({ route }) => route.method === method);
    if (!found) {
      sendError(new ApiError(404, `Unrecognized request URL (${method}: ${url.pathname}). FakeStripe does not implement this endpoint.`));
      return;
    }
    try {
      this.raisedEvents = [];
      const result = found.route.handle({ params, id: decodeURIComponent(found.match?.[1] ?? '') });
      const json = JSON.stringify(result, null, 2);
      // Like Stripe, only requests that ran are saved; a refused one may be retried with the same key.
      if (key) this.idempotentResponses.set(key, { method, path: url.pathname, params: canonicalParams, status: 200, body: json });
      send(200, json);
      this.sendRaisedEvents(this.raisedEvents.splice(0));
    } catch (error) {
      if (error instanceof ApiError) sendError(error);
      else throw error;
    }
  }

  private authorized(header: string | undefined): boolean {
    if (!header) return false;
    if (header.startsWith('Bearer ')) return header.slice(7) === this.secretKey;
    if (header.startsWith('Basic ')) return Buffer.from(header.slice(6), 'base64').toString().split(':')[0] === this.secretKey;
    return false;
  }

  private async handlePage(request: http.IncomingMessage, response: http.ServerResponse, url: URL, form: string): Promise<void> {
    const html = (status: number, title: string, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(htmlPage(title, body));
    };
    const path = url.pathname;
    let match: RegExpExecArray | null;

    if (request.method === 'GET' && (match = /^\/checkout\/([^/]+)$/.exec(path))) {
      const session = this.state.checkoutSessions.get(decodeURIComponent(match[1]!));
      if (!session) return html(404, 'Checkout not found', '<h1>Checkout session not found</h1>');
      return html(200, 'Checkout', this.checkoutPage(session));
    }

    // The customer types a promotion code on a session that allows them.
    if (request.method === 'POST' && (match = /^\/checkout\/([^/]+)\/promotion_code$/.exec(path))) {
      const session = this.state.checkoutSessions.get(decodeURIComponent(match[1]!));
      if (!session) return html(404, 'Checkout not found', '<h1>Checkout session not found</h1>');
      try {
        this.enterPromotionCode(session, new URLSearchParams(form).get('code') ?? '');
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return html(400, 'Checkout', this.checkoutPage(session, error.message));
      }
      response.writeHead(303, { location: `/checkout/${encodeURIComponent(session.id)}` });
      response.end();
      return;
    }

    if (request.method === 'POST' && (match = /^\/checkout\/([^/]+)\/pay$/.exec(path))) {
      const session = this.state.checkoutSessions.get(decodeURIComponent(match[1]!));
      if (!session) return html(404, 'Checkout not found', '<h1>Checkout session not found</h1>');
      if (session.status === 'expired') return html(410, 'Checkout expired', '<h1>This checkout session has expired</h1>');
      // A second click on an already paid session just goes on to the success page.
      if (session.status === 'open') {
        try {
          await this.completeCheckout(session.id, { sendWebhooks: true });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return html(500, 'Payment failed', `<h1>Payment failed</h1><p>${escapeHtml(message)}</p>`);
        }
      }
      if (!session.success_url) return html(200, 'Payment complete', '<h1>Payment complete</h1>');
      response.writeHead(303, { location: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) });
      response.end();
      return;
    }

    if (request.method === 'GET' && (match = /^\/portal\/([^/]+)$/.exec(path))) {
      const customerId = decodeURIComponent(match[1]!);
      if (!this.state.customers.has(customerId)) return html(404, 'Customer portal', '<h1>No such customer</h1>');
      // The newest portal session for this customer says where "back" goes.
      const returnUrl = [...this.portalSessions.values()].findLast((session) => session.customer === customerId)?.return_url;
      const back = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Return to the site</a></p>` : '';
      return html(200, 'Customer portal', `<h1>Customer portal</h1>\n<p>Customer ${escapeHtml(customerId)}</p>\n${back}`);
    }

    if (request.method === 'GET' && (match = /^\/invoices\/([^/]+?)(\.pdf)?$/.exec(path))) {
      const invoice = this.state.invoices.get(decodeURIComponent(match[1]!));
      if (!invoice) return html(404, 'Invoice not found', '<h1>Invoice not found</h1>');
      const lines = [
        `Invoice ${invoice.number}`,
        `Status: ${invoice.status}`,
        ...invoice.lines.data.map((line) => `${line.description}: ${formatAmount(line.amount, line.currency)}`),
        `Amount paid: ${formatAmount(invoice.amount_paid, invoice.currency)}`,
      ];
      if (match[2]) {
        const pdf = simplePdf(lines.map((line) => line.replace(/[^\x20-\x7e]/g, 'x')));
        response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
        response.end(pdf);
        return;
      }
      const items = lines.slice(1).map((line) => `<p>${escapeHtml(line)}</p>`);
      return html(200, `Invoice ${invoice.number}`, [`<h1>${escapeHtml(lines[0]!)}</h1>`, ...items].join('\n'));
    }

    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`FakeStripe: nothing at ${request.method} ${path}`);
  }

  private checkoutPage(session: CheckoutSession, error?: string): string {
    const details = this.sessionDetails.get(session.id)!;
    const items = this.lineItems(session.id).map((item) => {
      const quantity = item.quantity === 1 ? '' : ` × ${item.quantity}`;
      const amount = `${formatAmount(item.price.unit_amount, item.currency)}${describeInterval(item.price)}`;
      return `<li><strong>${escapeHtml(item.description)}</strong>${quantity}: ${escapeHtml(amount)}</li>`;
    });
    const lines: string[] = [];
    if (details.trialPeriodDays !== null) lines.push(`<p>${details.trialPeriodDays} days free</p>`);
    if (details.discount) {
      const coupon = this.couponById(details.discount.coupon)!;
      const promotionCode = details.discount.promotionCode ? this.state.promotionCodes.get(details.discount.promotionCode) : undefined;
      const label = promotionCode?.code ?? coupon.name ?? coupon.id;
      const amount = session.total_details.amount_discount;
      lines.push(`<p>Subtotal: ${escapeHtml(formatAmount(session.amount_subtotal, session.currency))}</p>`);
      lines.push(
        `<p>Discount ${escapeHtml(label)} (${escapeHtml(describeCoupon(coupon))}): −${escapeHtml(formatAmount(amount, session.currency))}</p>`,
      );
    }
    const codeForm =
      session.status === 'open' && session.allow_promotion_codes && !details.discount
        ? `<form method="post" action="/checkout/${encodeURIComponent(session.id)}/promotion_code"><label>Promotion code <input name="code" autocomplete="off"></label> <button type="submit">Apply</button></form>`
        : '';
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : '';
    const action =
      session.status === 'open'
        ? `<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay and subscribe</button></form>`
        : `<p>This checkout session is ${session.status}.</p>`;
    return [
      '<h1>Checkout</h1>',
      '<p>Test mode: no card needed.</p>',
      `<ul>${items.join('')}</ul>`,
      ...lines,
      `<p>Total due today: ${escapeHtml(formatAmount(session.amount_total, session.currency))}</p>`,
      ...(error ? [`<p role="alert">${escapeHtml(error)}</p>`] : []),
      codeForm,
      action,
      cancel,
    ]
      .filter((line) => line !== '')
      .join('\n');
  }

  // -------------------------------------------------------------------------------------------
  // Reading state: lookups, expansion and lists

  /** The stored object, or Stripe's resource_missing error naming `param`. */
  private need<K extends StateKind>(kind: K, id: string, param = 'id'): Stored<K> {
    const found = (this.state[kind] as Map<string, unknown>).get(id);
    if (found === undefined) throw noSuch(OBJECT_NAMES[kind], id, param);
    return found as Stored<K>;
  }

  /** A copy of any stored object by id, for expansion. */
  private lookup(id: string): unknown {
    for (const map of Object.values(this.state) as Map<string, unknown>[]) {
      const found = map.get(id);
      if (found !== undefined) return clone(found);
    }
    const deleted = this.deletedCoupons.get(id);
    return deleted && clone(deleted);
  }

  /** A coupon, also a deleted one (which discounts and promotion codes still name). */
  private couponById(id: string): Coupon | undefined {
    return this.state.coupons.get(id) ?? this.deletedCoupons.get(id);
  }

  /** A copy of `object` with the requested `expand[]` paths replaced by the objects they name. */
  private respond(object: unknown, params: Params): unknown {
    const copy = clone(object);
    for (const path of optStringArray(params, 'expand') ?? []) this.expandPath(copy, path.split('.'), path);
    return copy;
  }

  private expandPath(value: unknown, segments: string[], path: string): unknown {
    if (segments.length === 0 || value === null) return value;
    if (Array.isArray(value)) return value.map((entry) => this.expandPath(entry, segments, path));
    if (!isRecord(value)) return value;
    const [head, ...rest] = segments as [string, ...string[]];
    let field = value[head];
    // Checkout line items are not on the session unless asked for.
    if (field === undefined && head === 'line_items' && value.object === 'checkout.session') {
      field = this.list(`/v1/checkout/sessions/${String(value.id)}/line_items`, this.lineItems(String(value.id)).toReversed(), {});
    }
    // Nor is a coupon's applies_to.
    if (field === undefined && head === 'applies_to' && value.object === 'coupon') {
      field = { products: [...(this.couponAppliesTo.get(String(value.id)) ?? [])] };
    }
    if (field === undefined) throw new ApiError(400, `This property cannot be expanded (${path}). FakeStripe may not model it.`);
    if (typeof field === 'string') field = this.lookup(field) ?? field;
    // A list of ids (subscription.discounts, invoice.discounts) expands each one.
    else if (Array.isArray(field))
      field = field.map((entry: unknown) => (typeof entry === 'string' ? (this.lookup(entry) ?? entry) : entry));
    value[head] = this.expandPath(field, rest, path);
    return value;
  }

  /** Stripe's list envelope, newest first, with limit/starting_after/ending_before and `expand[]=data.x`. */
  private list<T extends { id: string }>(url: string, oldestFirst: T[], params: Params): unknown {
    const limit = optInt(params, 'limit') ?? 10;
    if (limit < 1 || limit > 100)
      throw invalidParam('limit', 'This value must be greater than or equal to 1 and less than or equal to 100.');
    let items = oldestFirst.toReversed();
    const startingAfter = optString(params, 'starting_after');
    const endingBefore = optString(params, 'ending_before');
    let hasMore: boolean;
    if (endingBefore) {
      items = items.slice(
        0,
        Math.max(
          0,
          items.findIndex((item) => item.id === endingBefore),
        ),
      );
      hasMore = items.length > limit;
      items = items.slice(-limit);
    } else {
      if (startingAfter) items = items.slice(items.findIndex((item) => item.id === startingAfter) + 1);
      hasMore = items.length > limit;
      items = items.slice(0, limit);
    }
    return this.respond({ object: 'list', data: items, has_more: hasMore, url } satisfies StripeList<T>, params);
  }

  private filterProducts(params: Params): Product[] {
    const active = optBool(params, 'active');
    return [...this.state.products.values()].filter((product) => active === undefined || product.active === active);
  }

  private filterPrices(params: Params): Price[] {
    const active = optBool(params, 'active');
    const lookupKeys = optStringArray(params, 'lookup_keys');
    const product = optString(params, 'product');
    const currency = optString(params, 'currency');
    const type = optString(params, 'type');
    const interval = optString(optObject(params, 'recurring') ?? {}, 'interval', 'recurring[interval]');
    return [...this.state.prices.values()].filter(
      (price) =>
        (active === undefined || price.active === active) &&
        (!lookupKeys || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
        (!product || price.product === product) &&
        (!currency || price.currency === currency.toLowerCase()) &&
        (!type || price.type === type) &&
        (!interval || price.recurring?.interval === interval),
    );
  }

  private filterCustomers(params: Params): Customer[] {
    const email = optString(params, 'email'); // case-sensitive, as Stripe documents
    return [...this.state.customers.values()].filter((customer) => !email || customer.email === email);
  }

  private filterSessions(params: Params): CheckoutSession[] {
    const customer = optString(params, 'customer');
    const subscription = optString(params, 'subscription');
    const status = optString(params, 'status');
    return [...this.state.checkoutSessions.values()].filter(
      (session) =>
        (!customer || session.customer === customer) &&
        (!subscription || session.subscription === subscription) &&
        (!status || session.status === status),
    );
  }

  private filterSubscriptions(params: Params): Subscription[] {
    const customer = optString(params, 'customer');
    const price = optString(params, 'price');
    const status = optEnum<SubscriptionStatus | 'all' | 'ended'>(params, 'status', [...SUBSCRIPTION_STATUSES, 'all', 'ended']);
    const statusMatches = (subscription: Subscription) => {
      if (status === 'all') return true;
      if (status === 'ended') return subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
      if (status) return subscription.status === status;
      return subscription.status !== 'canceled'; // without a status filter Stripe leaves out canceled ones
    };
    return [...this.state.subscriptions.values()].filter(
      (subscription) =>
        (!customer || subscription.customer === customer) &&
        (!price || subscription.items.data.some((item) => item.price.id === price)) &&
        statusMatches(subscription),
    );
  }

  private filterInvoices(params: Params): Invoice[] {
    const customer = optString(params, 'customer');
    const subscription = optString(params, 'subscription');
    const status = optString(params, 'status');
    return [...this.state.invoices.values()].filter(
      (invoice) =>
        (!customer || invoice.customer === customer) &&
        (!subscription || invoice.subscription === subscription) &&
        (!status || invoice.status === status),
    );
  }

  private filterRefunds(params: Params): Refund[] {
    const charge = optString(params, 'charge');
    const paymentIntent = optString(params, 'payment_intent');
    return [...this.state.refunds.values()].filter(
      (refund) => (!charge || refund.charge === charge) && (!paymentIntent || refund.payment_intent === paymentIntent),
    );
  }

  private filterPromotionCodes(params: Params): PromotionCode[] {
    const code = optString(params, 'code')?.toLowerCase(); // case-insensitive, as Stripe documents
    const active = optBool(params, 'active');
    const coupon = optString(params, 'coupon');
    const customer = optString(params, 'customer');
    return [...this.state.promotionCodes.values()].filter(
      (promotionCode) =>
        (code === undefined || promotionCode.code.toLowerCase() === code) &&
        (active === undefined || promotionCode.active === active) &&
        (!coupon || promotionCode.promotion.coupon === coupon) &&
        (!customer || promotionCode.customer === customer),
    );
  }

  private lineItems(sessionId: string): LineItem[] {
    this.need('checkoutSessions', sessionId);
    return this.sessionDetails.get(sessionId)?.lineItems ?? [];
  }

  // -------------------------------------------------------------------------------------------
  // Products, prices, customers

  private createProduct(params: Params): Product {
    const id = optString(params, 'id') ?? newId('prod');
    if (this.state.products.has(id)) throw new ApiError(400, 'Product already exists.', { code: 'resource_already_exists', param: 'id' });
    const created = now();
    const product: Product = {
      id,
      object: 'product',
      active: optBool(params, 'active') ?? true,
      created,
      updated: created,
      livemode: false,
      name: reqString(params, 'name'),
      description: optString(params, 'description') ?? null,
      metadata: metadataParam(params, 'metadata'),
      default_price: null,
      images: [],
      url: null,
      type: 'service',
    };
    this.state.products.set(id, product);
    return product;
  }

  private updateProduct(id: string, params: Params): Product {
    const product = this.need('products', id);
    product.name = optString(params, 'name') ?? product.name;
    product.active = optBool(params, 'active') ?? product.active;
    product.description = optString(params, 'description') ?? product.description;
    product.metadata = metadataParam(params, 'metadata', product.metadata);
    product.updated = now();
    return product;
  }

  private createPrice(params: Params): Price {
    const productData = optObject(params, 'product_data');
    const productId = optString(params, 'product') ?? (productData ? this.createProduct(productData).id : undefined);
    if (!productId) throw missingParam('product');
    this.need('products', productId, 'product');
    const unitAmount = optInt(params, 'unit_amount');
    if (unitAmount === undefined) throw missingParam('unit_amount');
    if (unitAmount < 0) throw invalidParam('unit_amount', 'This value must be greater than or equal to 0.');
    const recurring = optObject(params, 'recurring');
    const interval = recurring && optEnum<Interval>(recurring, 'interval', INTERVALS, 'recurring[interval]');
    if (recurring && !interval) throw missingParam('recurring[interval]');
    const intervalCount = (recurring && optInt(recurring, 'interval_count', 'recurring[interval_count]')) ?? 1;
    const currency = reqString(params, 'currency').toLowerCase();
    const lookupKey = optString(params, 'lookup_key') || null;
    if (lookupKey) this.claimLookupKey(lookupKey, optBool(params, 'transfer_lookup_key') ?? false);
    const price: Price = {
      id: newId('price'),
      object: 'price',
      active: optBool(params, 'active') ?? true,
      billing_scheme: 'per_unit',
      created: now(),
      currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: lookupKey,
      metadata: metadataParam(params, 'metadata'),
      nickname: optString(params, 'nickname') ?? null,
      product: productId,
      recurring: interval
        ? { interval, interval_count: intervalCount, meter: null, usage_type: 'licensed', trial_period_days: null }
        : null,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: interval ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
    };
    this.state.prices.set(price.id, price);
    return price;
  }

  private updatePrice(id: string, params: Params): Price {
    const price = this.need('prices', id);
    const lookupKey = optString(params, 'lookup_key');
    if (lookupKey !== undefined && lookupKey !== price.lookup_key) {
      if (lookupKey) this.claimLookupKey(lookupKey, optBool(params, 'transfer_lookup_key') ?? false);
      price.lookup_key = lookupKey || null;
    }
    price.active = optBool(params, 'active') ?? price.active;
    price.nickname = optString(params, 'nickname') ?? price.nickname;
    price.metadata = metadataParam(params, 'metadata', price.metadata);
    this.refreshEmbeddedPrice(price);
    return price;
  }

  /** A lookup key belongs to one active price; `transfer_lookup_key` takes it from the current holder. */
  private claimLookupKey(lookupKey: string, transfer: boolean): void {
    const holders = [...this.state.prices.values()].filter((price) => price.lookup_key === lookupKey);
    const active = holders.find((price) => price.active);
    if (active && !transfer) {
      throw new ApiError(400, `A price (\`${active.id}\`) already uses that lookup key.`, {
        code: 'lookup_key_exists',
        param: 'lookup_key',
      });
    }
    for (const holder of holders) {
      holder.lookup_key = null;
      this.refreshEmbeddedPrice(holder);
    }
  }

  /** Subscription items show the price as it is now, as Stripe's do. */
  private refreshEmbeddedPrice(price: Price): void {
    for (const subscription of this.state.subscriptions.values()) {
      for (const item of subscription.items.data) if (item.price.id === price.id) item.price = clone(price);
    }
  }

  private createCustomer(params: Params): Customer {
    const customer: Customer = {
      id: newId('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: optString(params, 'description') ?? null,
      email: optString(params, 'email') ?? null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: metadataParam(params, 'metadata'),
      name: optString(params, 'name') ?? null,
      phone: optString(params, 'phone') ?? null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.state.customers.set(customer.id, customer);
    return customer;
  }

  private updateCustomer(id: string, params: Params): Customer {
    const customer = this.need('customers', id);
    customer.email = optString(params, 'email') ?? customer.email;
    customer.name = optString(params, 'name') ?? customer.name;
    customer.phone = optString(params, 'phone') ?? customer.phone;
    customer.description = optString(params, 'description') ?? customer.description;
    customer.metadata = metadataParam(params, 'metadata', customer.metadata);
    return customer;
  }

  // -------------------------------------------------------------------------------------------
  // Coupons and promotion codes

  private createCoupon(params: Params): Coupon {
    const id = optString(params, 'id') ?? randomToken(8);
    if (this.state.coupons.has(id)) throw new ApiError(400, 'Coupon already exists.', { code: 'resource_already_exists', param: 'id' });
    const percentOff = optDecimal(params, 'percent_off');
    const amountOff = optInt(params, 'amount_off');
    if (percentOff !== undefined && amountOff !== undefined) {
      throw invalidParam('amount_off', 'You may only specify one of these parameters: amount_off, percent_off.');
    }
    if (percentOff === undefined && amountOff === undefined) {
      throw new ApiError(400, 'You must pass either `percent_off` or `amount_off`.', { code: 'parameter_missing', param: 'percent_off' });
    }
    if (percentOff !== undefined && (percentOff <= 0 || percentOff > 100)) {
      throw invalidParam('percent_off', 'Invalid percent_off: must be greater than 0 and less than or equal to 100.');
    }
    if (amountOff !== undefined && amountOff < 1) throw invalidParam('amount_off', 'This value must be greater than or equal to 1.');
    const currency = optString(params, 'currency')?.toLowerCase();
    if (amountOff !== undefined && !currency) {
      throw new ApiError(400, 'You must pass a `currency` with `amount_off`.', { code: 'parameter_missing', param: 'currency' });
    }
    const duration = optEnum<CouponDuration>(params, 'duration', ['once', 'repeating', 'forever']) ?? 'once';
    const durationInMonths = optInt(params, 'duration_in_months');
    if (duration === 'repeating' && durationInMonths === undefined) throw missingParam('duration_in_months');
    if (duration !== 'repeating' && durationInMonths !== undefined) {
      throw invalidParam('duration_in_months', 'duration_in_months can only be set when duration is repeating.');
    }
    if (durationInMonths !== undefined && durationInMonths < 1) {
      throw invalidParam('duration_in_months', 'This value must be greater than or equal to 1.');
    }
    const maxRedemptions = optInt(params, 'max_redemptions');
    if (maxRedemptions !== undefined && maxRedemptions < 1) {
      throw invalidParam('max_redemptions', 'This value must be greater than or equal to 1.');
    }
    const name = optString(params, 'name');
    if (name !== undefined && name.length > 40) throw invalidParam('name', 'Invalid name: must be at most 40 characters.');
    const appliesTo = optObject(params, 'applies_to');
    const products = appliesTo && optStringArray(appliesTo, 'products', 'applies_to[products]');
    products?.forEach((product, index) => this.need('products', product, `applies_to[products][${index}]`));
    const coupon: Coupon = {
      id,
      object: 'coupon',
      amount_off: amountOff ?? null,
      created: now(),
      currency: amountOff !== undefined ? currency! : null,
      duration,
      duration_in_months: durationInMonths ?? null,
      livemode: false,
      max_redemptions: maxRedemptions ?? null,
      metadata: metadataParam(params, 'metadata'),
      name: name ?? null,
      percent_off: percentOff ?? null,
      redeem_by: optFutureTimestamp(params, 'redeem_by') ?? null,
      times_redeemed: 0,
      valid: true,
    };
    this.state.coupons.set(id, coupon);
    this.couponAppliesTo.set(id, products ?? null);
    return coupon;
  }

  private updateCoupon(id: string, params: Params): Coupon {
    const coupon = this.need('coupons', id);
    const name = optString(params, 'name');
    if (name !== undefined && name.length > 40) throw invalidParam('name', 'Invalid name: must be at most 40 characters.');
    if (name !== undefined) coupon.name = name || null;
    coupon.metadata = metadataParam(params, 'metadata', coupon.metadata);
    return coupon;
  }

  /** Discounts made from the coupon stay; its promotion codes can no longer be redeemed. */
  private deleteCoupon(id: string): { id: string; object: 'coupon'; deleted: true } {
    const coupon = this.need('coupons', id);
    this.state.coupons.delete(id);
    this.deletedCoupons.set(id, coupon);
    for (const promotionCode of this.state.promotionCodes.values()) if (promotionCode.promotion.coupon === id) promotionCode.active = false;
    return { id, object: 'coupon', deleted: true };
  }

  /** Stripe's `valid` follows redeem_by and max_redemptions; a promotion code is only active while its coupon is valid. */
  private refreshCoupons(): void {
    const at = now();
    for (const coupon of this.state.coupons.values()) {
      coupon.valid =
        (coupon.redeem_by === null || coupon.redeem_by > at) &&
        (coupon.max_redemptions === null || coupon.times_redeemed < coupon.max_redemptions);
    }
    for (const promotionCode of this.state.promotionCodes.values()) {
      if (!this.state.coupons.get(promotionCode.promotion.coupon)?.valid) promotionCode.active = false;
    }
  }

  private createPromotionCode(params: Params): PromotionCode {
    if (params.coupon !== undefined) {
      throw new ApiError(400, 'Received unknown parameter: coupon. Did you mean promotion[coupon]?', {
        code: 'parameter_unknown',
        param: 'coupon',
      });
    }
    const promotion = optObject(params, 'promotion');
    if (!promotion) throw missingParam('promotion');
    const type = reqString(promotion, 'type', 'promotion[type]');
    if (type !== 'coupon') throw invalidParam('promotion[type]', 'Invalid promotion[type]: must be one of coupon');
    const coupon = this.need('coupons', reqString(promotion, 'coupon', 'promotion[coupon]'), 'promotion[coupon]');
    if (!coupon.valid) throw new ApiError(400, `Coupon expired: ${coupon.id}`, { code: 'coupon_expired', param: 'promotion[coupon]' });
    const code = optString(params, 'code') ?? randomToken(8).toUpperCase();
    if (!/^[a-zA-Z0-9]+$/.test(code)) {
      throw invalidParam('code', 'Invalid code: it may only contain lower case letters, upper case letters and digits.');
    }
    const active = optBool(params, 'active') ?? true;
    if (active) this.claimPromotionCode(code);
    const expiresAt = optFutureTimestamp(params, 'expires_at');
    if (expiresAt !== undefined && coupon.redeem_by !== null && expiresAt > coupon.redeem_by) {
      throw invalidParam('expires_at', "The promotion code's expires_at cannot be later than its coupon's redeem_by.");
    }
    const maxRedemptions = optInt(params, 'max_redemptions');
    if (maxRedemptions !== undefined && maxRedemptions < 1) {
      throw invalidParam('max_redemptions', 'This value must be greater than or equal to 1.');
    }
    const customer = optString(params, 'customer');
    if (customer) this.need('customers', customer, 'customer');
    const promotionCode: PromotionCode = {
      id: newId('promo'),
      object: 'promotion_code',
      active,
      code,
      created: now(),
      customer: customer ?? null,
      customer_account: null,
      expires_at: expiresAt ?? null,
      livemode: false,
      max_redemptions: maxRedemptions ?? null,
      metadata: metadataParam(params, 'metadata'),
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
      times_redeemed: 0,
    };
    this.state.promotionCodes.set(promotionCode.id, promotionCode);
    return promotionCode;
  }

  private updatePromotionCode(id: string, params: Params): PromotionCode {
    const promotionCode = this.need('promotionCodes', id);
    const active = optBool(params, 'active');
    if (active && !promotionCode.active) {
      if (!this.state.coupons.get(promotionCode.promotion.coupon)?.valid) {
        throw invalidParam('active', `The coupon of this promotion code (${promotionCode.promotion.coupon}) is no longer valid.`);
      }
      this.claimPromotionCode(promotionCode.code);
    }
    if (active !== undefined) promotionCode.active = active;
    promotionCode.metadata = metadataParam(params, 'metadata', promotionCode.metadata);
    return promotionCode;
  }

  /** A code is unique among active promotion codes, whatever its case. */
  private claimPromotionCode(code: string): void {
    const taken = [...this.state.promotionCodes.values()].some(
      (promotionCode) => promotionCode.active && promotionCode.code.toLowerCase() === code.toLowerCase(),
    );
    if (taken) throw invalidParam('code', `An active promotion code with \`code: ${code}\` already exists.`);
  }

  /**
   * The discount a checkout may take: a coupon, or a promotion code, refused as Stripe refuses them
   * (inactive, expired or used-up codes, invalid coupons, coupons for other products or currencies).
   */
  private redeemable(
    entry: { coupon?: string; promotionCode?: string },
    session: { customer: string | null; currency: string; products: string[] },
    param: string,
  ): { coupon: Coupon; promotionCode: PromotionCode | null } {
    let promotionCode: PromotionCode | null = null;
    if (entry.promotionCode !== undefined) {
      promotionCode = this.need('promotionCodes', entry.promotionCode, param);
      const refuse = (why: string) => invalidParam(param, `This promotion code cannot be redeemed because ${why}.`);
      if (!promotionCode.active) throw refuse('it is inactive');
      if (promotionCode.expires_at !== null && promotionCode.expires_at <= now()) throw refuse('it has expired');
      if (promotionCode.max_redemptions !== null && promotionCode.times_redeemed >= promotionCode.max_redemptions) {
        throw refuse('it has been used the maximum number of times');
      }
      if (promotionCode.customer !== null && promotionCode.customer !== session.customer) throw refuse('it belongs to another customer');
    }
    const couponId = promotionCode?.promotion.coupon ?? entry.coupon!;
    const coupon = promotionCode ? this.state.coupons.get(couponId) : this.need('coupons', couponId, param);
    if (!coupon || !coupon.valid) throw new ApiError(400, `Coupon expired: ${couponId}`, { code: 'coupon_expired', param: param });
    if (coupon.currency !== null && coupon.currency !== session.currency) {
      throw invalidParam(param, `The coupon's currency (${coupon.currency}) must match the currency of the prices (${session.currency}).`);
    }
    const appliesTo = this.couponAppliesTo.get(coupon.id) ?? null;
    if (appliesTo && !session.products.some((product) => appliesTo.includes(product))) {
      throw invalidParam(param, `The coupon ${coupon.id} does not apply to any of the products in this Checkout Session.`);
    }
    return { coupon, promotionCode };
  }

  // -------------------------------------------------------------------------------------------
  // Checkout

  private createCheckoutSession(params: Params): CheckoutSession {
    const mode = reqString(params, 'mode');
    if (mode !== 'subscription') throw invalidParam('mode', `FakeStripe only supports mode=subscription (got ${mode}).`);
    const customer = optString(params, 'customer');
    if (customer) this.need('customers', customer, 'customer');
    const customerEmail = optString(params, 'customer_email');
    if (customer && customerEmail)
      throw invalidParam('customer_email', 'You may only specify one of these parameters: customer, customer_email.');

    const lineItemParams = optArray(params, 'line_items') ?? [];
    if (lineItemParams.length === 0) throw missingParam('line_items');
    const lineItems = lineItemParams.map((entry, index): LineItem => {
      const name = `line_items[${index}]`;
      if (!isRecord(entry)) throw invalidParam(name, `Invalid object: ${name}`);
      const price = this.need('prices', reqString(entry, 'price', `${name}[price]`), `${name}[price]`);
      if (!price.active) throw invalidParam(`${name}[price]`, `The price specified (${price.id}) is inactive.`);
      if (!price.recurring) {
        throw invalidParam(`${name}[price]`, 'You must provide at least one recurring price in `subscription` mode when using prices.');
      }
      const quantity = optInt(entry, 'quantity', `${name}[quantity]`);
      if (quantity === undefined) throw missingParam(`${name}[quantity]`);
      if (quantity < 1) throw invalidParam(`${name}[quantity]`, 'This value must be greater than or equal to 1.');
      const amount = price.unit_amount * quantity;
      return {
        id: newId('li'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: this.state.products.get(price.product)?.name ?? price.product,
        price: clone(price),
        quantity,
      };
    });
    const currency = lineItems[0]!.currency;
    if (lineItems.some((item) => item.currency !== currency)) throw invalidParam('line_items', 'All prices must use the same currency.');

    const subscriptionData = optObject(params, 'subscription_data') ?? {};
    const trialPeriodDays = optInt(subscriptionData, 'trial_period_days', 'subscription_data[trial_period_days]');
    if (trialPeriodDays !== undefined && trialPeriodDays < 1) {
      throw invalidParam('subscription_data[trial_period_days]', 'This value must be greater than or equal to 1.');
    }
    if (trialPeriodDays !== undefined && trialPeriodDays > 730) {
      throw invalidParam('subscription_data[trial_period_days]', 'This value must be less than or equal to 730.');
    }

    const allowPromotionCodes = optBool(params, 'allow_promotion_codes');
    const discountParams = optArray(params, 'discounts');
    if (allowPromotionCodes !== undefined && discountParams !== undefined) {
      throw invalidParam('allow_promotion_codes', 'You may only specify one of these parameters: allow_promotion_codes, discounts.');
    }
    if (discountParams && discountParams.length > 1) {
      throw invalidParam('discounts', 'You may only specify one discount for a Checkout Session.');
    }
    const discountEntry = discountParams?.[0];
    let discount: SessionDetails['discount'] = null;
    if (discountEntry !== undefined) {
      if (!isRecord(discountEntry)) throw invalidParam('discounts[0]', 'Invalid object: discounts[0]');
      const couponId = optString(discountEntry, 'coupon', 'discounts[0][coupon]');
      const promotionCodeId = optString(discountEntry, 'promotion_code', 'discounts[0][promotion_code]');
      if (couponId && promotionCodeId) {
        throw invalidParam('discounts[0]', 'You may only specify one of these parameters: coupon, promotion_code.');
      }
      if (!couponId && !promotionCodeId) throw missingParam('discounts[0][coupon]');
      const { coupon, promotionCode } = this.redeemable(
        couponId ? { coupon: couponId } : { promotionCode: promotionCodeId! },
        { customer: customer ?? null, currency, products: lineItems.map((item) => item.price.product) },
        couponId ? 'discounts[0][coupon]' : 'discounts[0][promotion_code]',
      );
      discount = { coupon: coupon.id, promotionCode: promotionCode?.id ?? null };
    }

    const id = `cs_test_${randomToken(48)}`;
    const created = now();
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      allow_promotion_codes: allowPromotionCodes ?? null,
      amount_subtotal: 0,
      amount_total: 0,
      cancel_url: optUrl(params, 'cancel_url') ?? null,
      client_reference_id: optString(params, 'client_reference_id') ?? null,
      created,
      currency,
      customer: customer ?? null,
      customer_details: null,
      customer_email: customerEmail ?? null,
      discounts: discount ? [{ coupon: discount.promotionCode ? null : discount.coupon, promotion_code: discount.promotionCode }] : [],
      expires_at: created + 24 * 3600,
      invoice: null,
      livemode: false,
      metadata: metadataParam(params, 'metadata'),
      mode: 'subscription',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: optUrl(params, 'success_url') ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${this.url}/checkout/${id}`,
    };
    const details: SessionDetails = {
      lineItems,
      subscriptionMetadata: metadataParam(subscriptionData, 'metadata', {}, 'subscription_data[metadata]'),
      trialPeriodDays: trialPeriodDays ?? null,
      discount,
    };
    this.priceSession(session, details);
    this.sessionDetails.set(id, details);
    this.state.checkoutSessions.set(id, session);
    return session;
  }

  /** What is due today: nothing during a trial; otherwise the items less the discount. */
  private priceSession(session: CheckoutSession, details: SessionDetails): void {
    const trial = details.trialPeriodDays !== null;
    const subtotals = details.lineItems.map((item) => (trial ? 0 : item.price.unit_amount * item.quantity));
    const coupon = details.discount && this.couponById(details.discount.coupon);
    const discounts = coupon
      ? couponAmounts(
          coupon,
          this.couponAppliesTo.get(coupon.id) ?? null,
          details.lineItems.map((item, index) => ({ amount: subtotals[index]!, product: item.price.product })),
        )
      : subtotals.map(() => 0);
    details.lineItems.forEach((item, index) =>
      Object.assign(item, {
        amount_subtotal: subtotals[index]!,
        amount_discount: discounts[index]!,
        amount_total: subtotals[index]! - discounts[index]!,
      }),
    );
    session.amount_subtotal = sumOf(subtotals);
    session.total_details.amount_discount = sumOf(discounts);
    session.amount_total = session.amount_subtotal - session.total_details.amount_discount;
  }

  /** A promotion code the customer types on the checkout page (or completeCheckout's `promotionCode`). */
  private enterPromotionCode(session: CheckoutSession, code: string): void {
    const details = this.sessionDetails.get(session.id)!;
    if (session.status !== 'open') throw new ApiError(400, `This checkout session is ${session.status}.`);
    if (!session.allow_promotion_codes) throw invalidParam('code', 'This Checkout Session does not accept promotion codes.');
    if (details.discount) throw invalidParam('code', 'This Checkout Session already has a discount.');
    const wanted = code.trim().toLowerCase();
    const found = [...this.state.promotionCodes.values()].find(
      (promotionCode) => promotionCode.active && promotionCode.code.toLowerCase() === wanted,
    );
    if (!found) throw invalidParam('code', 'This code is invalid.');
    const { coupon, promotionCode } = this.redeemable(
      { promotionCode: found.id },
      { customer: session.customer, currency: session.currency, products: details.lineItems.map((item) => item.price.product) },
      'code',
    );
    details.discount = { coupon: coupon.id, promotionCode: promotionCode!.id };
    session.discounts = [{ coupon: null, promotion_code: promotionCode!.id }];
    this.priceSession(session, details);
  }

  private expireCheckoutSession(id: string): CheckoutSession {
    const session = this.need('checkoutSessions', id);
    if (session.status !== 'open')
      throw new ApiError(400, `Only Checkout Sessions with a status of open can be expired (this one is ${session.status}).`);
    session.status = 'expired';
    session.url = null;
    return session;
  }

  async completeCheckout(sessionId: string, options: { sendWebhooks?: boolean; promotionCode?: string } = {}): Promise<StripeJson> {
    const session = this.state.checkoutSessions.get(sessionId);
    if (!session) throw new Error(`FakeStripe: no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`FakeStripe: checkout session ${sessionId} is ${session.status}, not open`);
    const details = this.sessionDetails.get(sessionId)!;
    if (options.promotionCode !== undefined) {
      try {
        this.enterPromotionCode(session, options.promotionCode);
      } catch (error) {
        if (error instanceof ApiError) {
          throw new Error(`FakeStripe: promotion code ${options.promotionCode} refused: ${error.message}`, { cause: error });
        }
        throw error;
      }
    }

    const customer = session.customer
      ? this.need('customers', session.customer)
      : this.createCustomer({ email: session.customer_email ?? `customer-${randomToken(6).toLowerCase()}@example.com` });
    const start = now();
    const trialEnd = details.trialPeriodDays === null ? null : start + details.trialPeriodDays * 86_400;
    const subscriptionId = newId('sub');
    const items = details.lineItems.map((line): SubscriptionItem => ({
      id: newId('si'),
      object: 'subscription_item',
      created: start,
      current_period_start: start,
      current_period_end: trialEnd ?? addInterval(start, line.price.recurring!.interval, line.price.recurring!.interval_count),
      discounts: [],
      metadata: {},
      price: clone(this.state.prices.get(line.price.id) ?? line.price),
      quantity: line.quantity,
      subscription: subscriptionId,
      tax_rates: [],
    }));
    const subscription: Subscription = {
      id: subscriptionId,
      object: 'subscription',
      billing_cycle_anchor: trialEnd ?? start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: start,
      currency: session.currency,
      current_period_start: start,
      current_period_end: items[0]!.current_period_end,
      customer: customer.id,
      default_payment_method: null,
      description: null,
      discounts: [],
      ended_at: null,
      items: {
        object: 'list',
        data: items,
        has_more: false,
        total_count: items.length,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...details.subscriptionMetadata },
      pending_update: null,
      schedule: null,
      start_date: start,
      status: trialEnd === null ? 'active' : 'trialing',
      trial_end: trialEnd,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: trialEnd === null ? null : start,
    };
    this.state.subscriptions.set(subscriptionId, subscription);
    if (details.discount) subscription.discounts = [this.redeem(details.discount, session, subscription).id];
    const invoice = this.createPaidInvoice(subscription, 'subscription_create', this.periodLines(subscription, trialEnd !== null));

    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      subscription: subscriptionId,
      customer_details: { email: customer.email, name: customer.name, address: null, phone: null, tax_exempt: 'none', tax_ids: [] },
      url: null, // Stripe clears the URL once the session is done
    } satisfies Partial<CheckoutSession>);

    if (options.sendWebhooks ?? true) {
      await this.deliver('checkout.session.completed', session);
      await this.deliver('customer.subscription.created', subscription);
      await this.deliver('invoice.paid', invoice);
    }
    return clone(subscription);
  }

  /** The session's coupon or promotion code becomes the subscription's Discount, and counts one redemption. */
  private redeem(chosen: NonNullable<SessionDetails['discount']>, session: CheckoutSession, subscription: Subscription): Discount {
    const coupon = this.couponById(chosen.coupon)!;
    const promotionCode = chosen.promotionCode ? this.state.promotionCodes.get(chosen.promotionCode) : undefined;
    const start = subscription.start_date;
    const discount: Discount = {
      id: newId('di'),
      object: 'discount',
      checkout_session: session.id,
      customer: subscription.customer,
      customer_account: null,
      end: coupon.duration === 'repeating' ? addInterval(start, 'month', coupon.duration_in_months!) : null,
      invoice: null,
      invoice_item: null,
      promotion_code: promotionCode?.id ?? null,
      source: { type: 'coupon', coupon: coupon.id },
      start,
      subscription: subscription.id,
      subscription_item: null,
    };
    this.state.discounts.set(discount.id, discount);
    this.discountDetails.set(discount.id, {
      coupon: clone(coupon),
      appliesTo: this.couponAppliesTo.get(coupon.id) ?? null,
      consumed: false,
    });
    coupon.times_redeemed += 1;
    if (promotionCode) promotionCode.times_redeemed += 1;
    this.refreshCoupons();
    return discount;
  }

  // -------------------------------------------------------------------------------------------
  // Subscriptions, invoices, payments

  /** One line per item for the subscription's current period, at 0 during a trial. */
  private periodLines(subscription: Subscription, trial: boolean): DraftLine[] {
    return subscription.items.data.map((item) => {
      const name = this.state.products.get(item.price.product)?.name ?? item.price.product;
      return {
        itemId: item.id,
        price: clone(item.price),
        quantity: item.quantity,
        amount: trial ? 0 : item.price.unit_amount * item.quantity,
        description: trial
          ? `Trial period for ${name}`
          : `${item.quantity} × ${name} (at ${formatAmount(item.price.unit_amount, item.price.currency)}${describeInterval(item.price)})`,
        period: { start: item.current_period_start, end: item.current_period_end },
        proration: false,
      };
    });
  }

  /**
   * What the subscription's discounts take off these lines. A discount applies while it lasts: a once
   * coupon to the first invoice with something to pay, a repeating one to periods that start before its
   * end, a forever one always. At a renewal (`prune`) those that no longer apply leave the subscription.
   */
  private applyDiscounts(
    subscription: Subscription,
    lines: DraftLine[],
    prune: boolean,
  ): { perLine: { amount: number; discount: string }[][]; applied: string[] } {
    const live = subscription.discounts.filter((id) => {
      const details = this.discountDetails.get(id);
      if (!details) return true;
      const end = this.state.discounts.get(id)?.end ?? null;
      if (details.coupon.duration === 'once') return !details.consumed;
      return details.coupon.duration !== 'repeating' || end === null || subscription.current_period_start < end;
    });
    if (prune) subscription.discounts = live;
    const perLine: { amount: number; discount: string }[][] = lines.map(() => []);
    if (sumOf(lines.map((line) => line.amount)) <= 0) return { perLine, applied: [] };
    const left = lines.map((line) => line.amount);
    const applied = live.filter((id) => this.discountDetails.has(id));
    for (const id of applied) {
      const details = this.discountDetails.get(id)!;
      const amounts = couponAmounts(
        details.coupon,
        details.appliesTo,
        lines.map((line, index) => ({ amount: left[index]!, product: line.price.product })),
      );
      amounts.forEach((amount, index) => {
        left[index]! -= amount;
        perLine[index]!.push({ amount, discount: id });
      });
      if (details.coupon.duration === 'once') details.consumed = true;
    }
    return { perLine, applied };
  }

  /** A paid invoice for the lines (the items' current period unless given), less the subscription's discounts, with its payment intent and charge when something is due. */
  private createPaidInvoice(
    subscription: Subscription,
    reason: Invoice['billing_reason'],
    draftLines = this.periodLines(subscription, false),
  ): Invoice {
    const customer = this.need('customers', subscription.customer);
    const created = now();
    const invoiceId = newId('in');
    const { perLine, applied } = this.applyDiscounts(subscription, draftLines, reason === 'subscription_cycle');
    const lines = draftLines.map((draft, index): InvoiceLine => ({
      id: newId('il'),
      object: 'line_item',
      amount: draft.amount,
      currency: draft.price.currency,
      description: draft.description,
      discount_amounts: perLine[index]!,
      discountable: true,
      discounts: [],
      invoice: invoiceId,
      livemode: false,
      metadata: {},
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: draft.proration,
          subscription: subscription.id,
          subscription_item: draft.itemId,
        },
      },
      period: { ...draft.period },
      pricing: {
        type: 'price_details',
        price_details: { price: draft.price.id, product: draft.price.product },
        unit_amount_decimal: String(draft.price.unit_amount),
      },
      price: clone(draft.price),
      quantity: draft.quantity,
    }));
    const subtotal = sumOf(lines.map((line) => line.amount));
    const totalDiscounts = applied.map((discount) => ({
      amount: sumOf(perLine.map((amounts) => sumOf(amounts.filter((entry) => entry.discount === discount).map((entry) => entry.amount)))),
      discount,
    }));
    const amount = Math.max(0, subtotal - sumOf(totalDiscounts.map((entry) => entry.amount)));
    const payment = amount > 0 ? this.createPayment(customer.id, amount, subscription.currency) : undefined;
    const invoice: Invoice = {
      id: invoiceId,
      object: 'invoice',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      attempt_count: payment ? 1 : 0,
      attempted: payment !== undefined,
      billing_reason: reason,
      charge: payment?.charge.id ?? null,
      collection_method: 'charge_automatically',
      created,
      currency: subscription.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      discounts: applied,
      hosted_invoice_url: `${this.url}/invoices/${invoiceId}`,
      invoice_pdf: `${this.url}/invoices/${invoiceId}.pdf`,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${invoiceId}/lines` },
      livemode: false,
      metadata: {},
      number: `${customer.invoice_prefix}-${String([...this.state.invoices.values()].filter((i) => i.customer === customer.id).length + 1).padStart(4, '0')}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      },
      payment_intent: payment?.paymentIntent.id ?? null,
      payments: {
        object: 'list',
        data: payment
          ? [
              {
                id: newId('inpay'),
                object: 'invoice_payment',
                amount_paid: amount,
                amount_requested: amount,
                currency: subscription.currency,
                invoice: invoiceId,
                is_default: true,
                payment: { type: 'payment_intent', payment_intent: payment.paymentIntent.id },
                status: 'paid',
              },
            ]
          : [],
        has_more: false,
        url: `/v1/invoice_payments?invoice=${invoiceId}`,
      },
      period_end: created,
      period_start: created,
      status: 'paid',
      status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: created, voided_at: null },
      subscription: subscription.id,
      subtotal,
      subtotal_excluding_tax: subtotal,
      total: amount,
      total_discount_amounts: totalDiscounts,
      total_excluding_tax: amount,
    };
    this.state.invoices.set(invoiceId, invoice);
    subscription.latest_invoice = invoiceId;
    return invoice;
  }

  private createPayment(customer: string, amount: number, currency: string): { paymentIntent: PaymentIntent; charge: Charge } {
    const created = now();
    const paymentIntentId = newId('pi');
    const charge: Charge = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      captured: true,
      created,
      currency,
      customer,
      livemode: false,
      metadata: {},
      paid: true,
      payment_intent: paymentIntentId,
      refunded: false,
      status: 'succeeded',
    };
    const paymentIntent: PaymentIntent = {
      id: paymentIntentId,
      object: 'payment_intent',
      amount,
      amount_received: amount,
      created,
      currency,
      customer,
      latest_charge: charge.id,
      livemode: false,
      metadata: {},
      status: 'succeeded',
    };
    this.state.charges.set(charge.id, charge);
    this.state.paymentIntents.set(paymentIntent.id, paymentIntent);
    return { paymentIntent, charge };
  }

  /** Stripe records the request time in canceled_at even when the end comes at the period's end. */
  private setCancelAtPeriodEnd(subscription: Subscription, cancel: boolean): void {
    subscription.cancel_at_period_end = cancel;
    subscription.cancel_at = cancel ? subscription.current_period_end : null;
    subscription.canceled_at = cancel ? now() : null;
    subscription.cancellation_details.reason = cancel ? 'cancellation_requested' : null;
  }

  private setPeriod(subscription: Subscription, start: number, end: number): void {
    subscription.current_period_start = start;
    subscription.current_period_end = end;
    for (const item of subscription.items.data) Object.assign(item, { current_period_start: start, current_period_end: end });
    if (subscription.cancel_at_period_end) subscription.cancel_at = end;
  }

  private updateSubscription(id: string, params: Params): Subscription {
    const subscription = this.need('subscriptions', id);
    if (
      subscription.status === 'canceled' &&
      Object.keys(params).some((key) => !['metadata', 'cancellation_details', 'expand'].includes(key))
    ) {
      throw new ApiError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
    }
    // Prorations are billed for added seats only (a price change is not prorated; fewer seats credit nothing).
    const prorationBehavior =
      optEnum<'create_prorations' | 'none' | 'always_invoice'>(params, 'proration_behavior', [
        'create_prorations',
        'none',
        'always_invoice',
      ]) ?? 'create_prorations';
    const previousItems = clone(subscription.items);
    const prorations: DraftLine[] = [];
    let quantityChanged = false;
    const cancelAtPeriodEnd = optBool(params, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined) this.setCancelAtPeriodEnd(subscription, cancelAtPeriodEnd);
    if (params.cancel_at !== undefined) {
      const cancelAt = params.cancel_at === '' ? null : optInt(params, 'cancel_at')!;
      Object.assign(subscription, { cancel_at: cancelAt, cancel_at_period_end: false, canceled_at: cancelAt === null ? null : now() });
    }

    (optArray(params, 'items') ?? []).forEach((entry, index) => {
      const name = `items[${index}]`;
      if (!isRecord(entry)) throw invalidParam(name, `Invalid object: ${name}`);
      const itemId = optString(entry, 'id', `${name}[id]`);
      const item = itemId ? subscription.items.data.find((candidate) => candidate.id === itemId) : undefined;
      if (itemId && !item) throw noSuch('subscription item', itemId, `${name}[id]`);
      if (item && optBool(entry, 'deleted', `${name}[deleted]`)) {
        subscription.items.data = subscription.items.data.filter((candidate) => candidate !== item);
        return;
      }
      const priceId = optString(entry, 'price', `${name}[price]`);
      const price = priceId ? this.need('prices', priceId, `${name}[price]`) : undefined;
      if (price && (!price.active || !price.recurring))
        throw invalidParam(`${name}[price]`, `The price ${price.id} is inactive or not recurring.`);
      const quantity = optInt(entry, 'quantity', `${name}[quantity]`);
      if (quantity !== undefined && quantity < 0) throw invalidParam(`${name}[quantity]`, 'This value must be greater than or equal to 0.');
      if (item) {
        const old = item.price.recurring!;
        if (quantity !== undefined && quantity !== item.quantity) {
          quantityChanged = true;
          const added = quantity - item.quantity;
          if (added > 0 && !price && subscription.status !== 'trialing' && prorationBehavior !== 'none') {
            prorations.push(this.prorationLine(subscription, item, added));
          }
        }
        if (price) item.price = clone(price);
        if (quantity !== undefined) item.quantity = quantity;
        // Changing to a different billing interval restarts the billing cycle now, as Stripe does.
        if (price && (price.recurring!.interval !== old.interval || price.recurring!.interval_count !== old.interval_count)) {
          const start = now();
          subscription.billing_cycle_anchor = start;
          this.setPeriod(subscription, start, addInterval(start, price.recurring!.interval, price.recurring!.interval_count));
        }
      } else {
        if (!price) throw missingParam(`${name}[price]`);
        subscription.items.data.push({
          id: newId('si'),
          object: 'subscription_item',
          created: now(),
          current_period_start: subscription.current_period_start,
          current_period_end: subscription.current_period_end,
          discounts: [],
          metadata: {},
          price: clone(price),
          quantity: quantity ?? 1,
          subscription: subscription.id,
          tax_rates: [],
        });
      }
    });
    subscription.items.total_count = subscription.items.data.length;
    subscription.metadata = metadataParam(params, 'metadata', subscription.metadata);

    let invoice: Invoice | undefined;
    if (prorations.length > 0 && prorationBehavior === 'always_invoice') {
      invoice = this.createPaidInvoice(subscription, 'subscription_update', prorations);
    } else if (prorations.length > 0) {
      this.pendingProrations.set(subscription.id, [...(this.pendingProrations.get(subscription.id) ?? []), ...prorations]);
    }
    if (quantityChanged) {
      this.raisedEvents.push({
        type: 'customer.subscription.updated',
        object: clone(subscription),
        options: { previous_attributes: { items: previousItems } },
      });
    }
    if (invoice) this.raisedEvents.push({ type: 'invoice.paid', object: clone(invoice), options: {} });
    return subscription;
  }

  /** Added seats for the rest of the current period: unit price × seats × the part of the period left, rounded. */
  private prorationLine(subscription: Subscription, item: SubscriptionItem, added: number): DraftLine {
    const at = now();
    const { current_period_start: start, current_period_end: end } = subscription;
    const fraction = end > start ? Math.min(1, Math.max(0, (end - at) / (end - start))) : 0;
    const name = this.state.products.get(item.price.product)?.name ?? item.price.product;
    return {
      itemId: item.id,
      price: clone(item.price),
      quantity: added,
      amount: Math.round(item.price.unit_amount * added * fraction),
      description: `Remaining time on ${added} × ${name} after ${new Date(at * 1000).toISOString().slice(0, 10)}`,
      period: { start: at, end },
      proration: true,
    };
  }

  private cancelSubscription(id: string): Subscription {
    const subscription = this.need('subscriptions', id);
    if (subscription.status === 'canceled') throw new ApiError(400, `This subscription (${id}) is already canceled.`);
    const at = now();
    Object.assign(subscription, { status: 'canceled', canceled_at: at, ended_at: at, cancel_at: null, cancel_at_period_end: false });
    subscription.cancellation_details.reason = 'cancellation_requested';
    return subscription;
  }

  updateSubscriptionState(id: string, changes: Record<string, unknown>): StripeJson {
    const subscription = this.state.subscriptions.get(id);
    if (!subscription) throw new Error(`FakeStripe: no subscription ${id}`);
    const {
      status,
      cancel_at_period_end: cancelAtPeriodEnd,
      current_period_start: start,
      current_period_end: end,
      price,
      ...rest
    } = changes;
    if (status !== undefined) {
      if (typeof status !== 'string' || !SUBSCRIPTION_STATUSES.includes(status))
        throw new Error(`FakeStripe: bad status ${String(status)}`);
      subscription.status = status as SubscriptionStatus;
      if (status === 'canceled') {
        subscription.canceled_at ??= now();
        subscription.ended_at ??= now();
      }
    }
    if (cancelAtPeriodEnd !== undefined) this.setCancelAtPeriodEnd(subscription, Boolean(cancelAtPeriodEnd));
    if (start !== undefined || end !== undefined) {
      if ((start !== undefined && typeof start !== 'number') || (end !== undefined && typeof end !== 'number')) {
        throw new Error('FakeStripe: current_period_start/end are unix seconds');
      }
      this.setPeriod(subscription, start ?? subscription.current_period_start, end ?? subscription.current_period_end);
    }
    if (price !== undefined) {
      const found = this.state.prices.get(String(price));
      if (!found) throw new Error(`FakeStripe: no price ${String(price)}`);
      subscription.items.data[0]!.price = clone(found);
    }
    Object.assign(subscription, rest); // anything else (canceled_at, ended_at, metadata...) as given
    return clone(subscription);
  }

  async renewSubscription(id: string, options: { sendWebhooks?: boolean } = {}): Promise<StripeJson> {
    const subscription = this.state.subscriptions.get(id);
    if (!subscription) throw new Error(`FakeStripe: no subscription ${id}`);
    if (subscription.status === 'canceled') throw new Error(`FakeStripe: subscription ${id} is canceled`);
    const previous = { status: subscription.status, current_period_start: subscription.current_period_start };
    const end = subscription.current_period_end;
    if (subscription.cancel_at_period_end) {
      Object.assign(subscription, { status: 'canceled', ended_at: end, cancel_at: null });
      if (options.sendWebhooks ?? true) await this.deliver('customer.subscription.deleted', subscription);
      return clone(subscription);
    }
    this.setPeriod(subscription, end, this.nextPeriodEnd(subscription, end));
    subscription.status = 'active';
    const prorations = this.pendingProrations.get(id) ?? [];
    this.pendingProrations.delete(id);
    const invoice = this.createPaidInvoice(subscription, 'subscription_cycle', [...prorations, ...this.periodLines(subscription, false)]);
    if (options.sendWebhooks ?? true) {
      await this.deliver('invoice.paid', invoice);
      await this.deliver('customer.subscription.updated', subscription, { previous_attributes: previous });
    }
    return clone(subscription);
  }

  /**
   * Where the period starting at `start` ends: on the billing cycle anchor's schedule, as Stripe bills
   * (an anchor on the 31st renews on the 30th or 28th and then on the 31st again), or one interval on
   * when a test moved the period off it.
   */
  private nextPeriodEnd(subscription: Subscription, start: number): number {
    const { interval, interval_count: count } = subscription.items.data[0]!.price.recurring!;
    const anchor = subscription.billing_cycle_anchor;
    for (let periods = 0; periods < 10_000; periods += 1) {
      const boundary = addInterval(anchor, interval, count * periods);
      if (boundary === start) return addInterval(anchor, interval, count * (periods + 1));
      if (boundary > start) break;
    }
    return addInterval(start, interval, count);
  }

  async endTrialWithoutPayment(id: string, options: { behavior?: 'cancel' | 'pause'; sendWebhooks?: boolean } = {}): Promise<StripeJson> {
    const subscription = this.state.subscriptions.get(id);
    if (!subscription) throw new Error(`FakeStripe: no subscription ${id}`);
    if (subscription.status !== 'trialing') throw new Error(`FakeStripe: subscription ${id} is ${subscription.status}, not trialing`);
    const behavior = options.behavior ?? 'cancel';
    const end = subscription.trial_end ?? subscription.current_period_end;
    subscription.trial_settings.end_behavior.missing_payment_method = behavior;
    const previous = { status: subscription.status };
    if (behavior === 'cancel') {
      Object.assign(subscription, { status: 'canceled', canceled_at: end, ended_at: end, cancel_at: null, cancel_at_period_end: false });
      if (options.sendWebhooks ?? true) await this.deliver('customer.subscription.deleted', subscription);
    } else {
      subscription.status = 'paused';
      if (options.sendWebhooks ?? true) {
        await this.deliver('customer.subscription.paused', subscription);
        await this.deliver('customer.subscription.updated', subscription, { previous_attributes: previous });
      }
    }
    return clone(subscription);
  }

  private createRefund(params: Params): Refund {
    const paymentIntentId = optString(params, 'payment_intent');
    const chargeId = optString(params, 'charge');
    if (!paymentIntentId && !chargeId) {
      throw new ApiError(400, 'One of the following params should be provided for this request: payment_intent or charge.', {
        code: 'parameter_missing',
        param: 'charge',
      });
    }
    const charge = chargeId
      ? this.need('charges', chargeId, 'charge')
      : this.need('charges', this.need('paymentIntents', paymentIntentId!, 'payment_intent').latest_charge);
    const refundable = charge.amount - charge.amount_refunded;
    if (refundable <= 0) throw new ApiError(400, `Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = optInt(params, 'amount') ?? refundable;
    if (amount < 1) throw invalidParam('amount', 'This value must be greater than or equal to 1.');
    if (amount > refundable) {
      throw new ApiError(
        400,
        `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(refundable, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const reason = optEnum(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer']) ?? null;
    const refund: Refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: metadataParam(params, 'metadata'),
      payment_intent: charge.payment_intent,
      reason,
      status: 'succeeded',
    };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.state.refunds.set(refund.id, refund);
    return refund;
  }

  private createPortalSession(params: Params): PortalSession {
    const customer = reqString(params, 'customer');
    this.need('customers', customer, 'customer');
    const session: PortalSession = {
      id: newId('bps'),
      object: 'billing_portal.session',
      configuration: 'bpc_fake_default',
      created: now(),
      customer,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: optUrl(params, 'return_url') ?? null,
      url: `${this.url}/portal/${customer}`,
    };
    this.portalSessions.set(session.id, session);
    return session;
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks

  signedEvent(type: string, object: unknown, options: EventOptions = {}): { payload: string; signature: string; event: StripeJson } {
    const event = {
      id: options.id ?? newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: options.created ?? now(),
      data: {
        object: JSON.parse(JSON.stringify(object)) as unknown,
        ...(options.previous_attributes ? { previous_attributes: options.previous_attributes } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    // Stripe sends pretty-printed JSON; the signature covers these exact bytes, so the receiver must use the raw body.
    const payload = JSON.stringify(event, null, 2);
    const signature = this.sdk.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret, timestamp: now() });
    return { payload, signature, event };
  }

  async sendEvent(type: string, object: unknown, options: EventOptions = {}): Promise<Response> {
    if (!this.webhookTarget) throw new Error('FakeStripe: no webhook target; call setWebhookTarget(url) first');
    const { payload, signature, event } = this.signedEvent(type, object, options);
    const response = await fetch(this.webhookTarget, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    this.events.push({ type, event, status: response.status });
    return response;
  }

  /** Sends an API call's events one after another, after its answer; refusals wait for webhooksSettled(). */
  private sendRaisedEvents(raised: { type: string; object: unknown; options: EventOptions }[]): void {
    if (raised.length === 0 || !this.webhookTarget) return;
    this.backgroundDeliveries = this.backgroundDeliveries.then(async () => {
      for (const { type, object, options } of raised) {
        try {
          await this.deliver(type, object, options);
        } catch (error) {
          this.backgroundErrors.push(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
  }

  async webhooksSettled(): Promise<void> {
    let pending: Promise<void>;
    do {
      pending = this.backgroundDeliveries;
      await pending;
    } while (pending !== this.backgroundDeliveries);
    const [first] = this.backgroundErrors.splice(0);
    if (first) throw first;
  }

  /** Sends an event the fake raised itself; a refusal is a failure of the test's setup, so it throws. */
  private async deliver(type: string, object: unknown, options: EventOptions = {}): Promise<void> {
    const response = await this.sendEvent(type, object, options);
    const text = await response.text();
    if (!response.ok) throw new Error(`FakeStripe: webhook ${type} answered ${response.status}: ${text.slice(0, 500)}`);
  }
}
