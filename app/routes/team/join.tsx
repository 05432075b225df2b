import { Form, Link, redirect, useActionData } from 'react-router';
import { JoinInput } from '../../../common/teams.contract.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices, pageSession } from '../../lib/page-context.ts';
import type { Route } from './+types/join';

// The page an agent's invitation link opens: who invites them to which team; only the button (a
// POST) takes the seat, so a mail scanner opening the link takes nothing. A visitor signs in or
// creates their account first, and comes back here.

export const meta = () => pageMeta({ title: 'Join your team', description: 'Take the seat your brokerage holds for you.' });

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? '';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const token = JoinInput.safeParse({ token: tokenOf(request) });
  const invitation = token.success ? await services.teams.invitation(token.data.token) : null;
  return {
    invitation,
    signedIn: viewer.member !== null,
    email: viewer.member?.email ?? null,
    token: token.success ? token.data.token : '',
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { services, viewer } = pageServices(context);
  const form = await request.formData();
  const token = JoinInput.safeParse({ token: form.get('token') });
  if (!token.success) return { ok: false as const, message: token.error.issues[0]?.message ?? 'This invitation link is not complete.' };
  const joined = await attempt(() => services.teams.join(viewer, token.data.token));
  if (!joined.ok) return { ok: false as const, message: joined.message };
  pageSession(context).flash({
    type: 'success',
    message: `Welcome to ${joined.value.team_name}: you have ${TIER_LABEL[joined.value.tier]} membership.`,
  });
  throw redirect('/dashboard');
}

export default function JoinTeam({ loaderData }: Route.ComponentProps) {
  const { invitation, signedIn, email, token } = loaderData;
  const refused = useActionData<typeof action>();
  const back = `/team/join?${new URLSearchParams({ token })}`;
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card as="section" className="space-y-4 p-6">
        {!invitation ? (
          <>
            <h1 className="text-2xl font-extrabold text-gray-900">This invitation does not work</h1>
            <p className="text-gray-700">It may have expired, been used, or been withdrawn. Ask your broker for a new one.</p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-extrabold text-gray-900">Join {invitation.team_name}</h1>
            <p className="text-gray-700">
              {invitation.broker_name} holds a seat for you: {TIER_LABEL[invitation.tier]} membership, paid by your brokerage, for as long
              as you have it.
            </p>
            {refused && !refused.ok && (
              <p role="alert" className="text-sm text-red-700">
                {refused.message}
              </p>
            )}
            {signedIn ? (
              <Form method="post">
                <input type="hidden" name="token" value={token} />
                <p className="mb-3 text-sm text-gray-600">Signed in as {email}.</p>
                <Button type="submit">Join the team</Button>
              </Form>
            ) : (
              <div className="flex flex-wrap items-center gap-3">
                <ButtonLink to={`/signup?${new URLSearchParams({ join: back })}`}>Create your free account</ButtonLink>
                <Link
                  to={`/login?${new URLSearchParams({ join: back })}`}
                  className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600"
                >
                  I have an account
                </Link>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
