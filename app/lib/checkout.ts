import { redirect, type RouterContextProvider } from 'react-router';
import { CheckoutInput, CheckoutRequest } from '../../common/billing.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { attempt } from './forms.ts';
import { pageServices, pageSession } from './page-context.ts';

type Context = Readonly<RouterContextProvider>;

/**
 * The plan a visitor chose on the pricing page, carried through sign-up or sign-in in the address
 * (?plan=silver&period=yearly); null when none, or not a paid plan.
 */
export function chosenPlan(request: Request): CheckoutRequest | null {
  const query = new URL(request.url).searchParams;
  const plan = CheckoutInput.safeParse({ tier: query.get('plan'), period: query.get('period') ?? 'monthly' });
  if (!plan.success) return null;
  // An offer code that came along (?offer=); one that is not a code is left out, not refused here.
  const withOffer = CheckoutRequest.safeParse({ ...plan.data, offer: query.get('offer') ?? undefined });
  return withOffer.success ? withOffer.data : plan.data;
}

/** The pricing page's link for a visitor: to sign-up, with the plan (and offer) to pay for next when payments are on. */
export function signUpFor(plan: CheckoutRequest, billingEnabled: boolean): string {
  if (!billingEnabled) return '/signup';
  return `/signup?${new URLSearchParams({ plan: plan.tier, period: plan.period, ...(plan.offer && { offer: plan.offer }) })}`;
}

const PROVIDER_AWAY = 'We could not reach our payment provider. Please try again in a moment.';

/** A Stripe Checkout page for the plan, or why there is none (a refusal's status and message). */
export async function startCheckout(
  context: Context,
  viewer: Viewer,
  plan: CheckoutRequest,
): Promise<{ ok: true; url: string } | { ok: false; status: number; message: string }> {
  const { services } = pageServices(context);
  try {
    const started = await attempt(() => services.billing.checkout(viewer, plan));
    return started.ok ? { ok: true, url: started.value.url } : { ok: false, status: started.status, message: started.message };
  } catch (error) {
    console.error('Starting a checkout failed:', error instanceof Error ? error.message : error);
    return { ok: false, status: 502, message: PROVIDER_AWAY };
  }
}

/**
 * Straight on to Stripe's checkout for the plan. When it cannot start (the member already has a
 * plan, payments are off, Stripe is away), the member lands where they can act on the message.
 */
export async function continueToCheckout(context: Context, viewer: Viewer, plan: CheckoutRequest): Promise<never> {
  const started = await startCheckout(context, viewer, plan);
  if (started.ok) throw redirect(started.url);
  pageSession(context).flash({ type: started.status === 409 ? 'info' : 'error', message: started.message });
  throw redirect(started.status === 409 ? '/account/billing' : '/pricing');
}
