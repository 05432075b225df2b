import { Form, useActionData } from 'react-router';
import { UnsubscribeInput } from '../../../common/account.contract.ts';
import { LinkOutcome } from '../../components/account/link-outcome.tsx';
import { Button } from '../../components/ui/button.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/unsubscribe';

export const meta = () => pageMeta({ title: 'Unsubscribe', description: 'Stop emails you do not need.' });

export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get('token') ?? '' });

// Opening the link changes nothing (mail scanners open links); the button does.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(UnsubscribeInput, request);
  if (!form.ok) return invalid(form);
  const done = await attempt(() => pageServices(context).services.account.unsubscribe(form.data.token));
  if (!done.ok) return done.refusal;
  return { ok: true as const };
}

export default function UnsubscribePage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  if (result?.ok) {
    return (
      <LinkOutcome
        ok
        title="You are unsubscribed"
        message="We will only email you about your account from now on (sign-in, security and billing)."
        next={{ to: '/', label: 'Back to Home' }}
      />
    );
  }
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-800">Unsubscribe</h1>
      <p className="mt-4 text-gray-700">Stop emails that your account does not need, such as certificates and community replies.</p>
      {result && !result.ok && (
        <p role="alert" className="mt-4 text-red-800">
          {result.formError}
        </p>
      )}
      <Form method="post" className="mt-8">
        <input type="hidden" name="token" value={loaderData.token} />
        <Button type="submit">Unsubscribe</Button>
      </Form>
    </section>
  );
}
