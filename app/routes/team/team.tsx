import { redirect, useFetcher } from 'react-router';
import { z } from 'zod';
import { formatDate } from '../../../common/format.ts';
import { TEAMS } from '../../../common/limits.ts';
import { formatCents } from '../../../common/pricing.ts';
import { AgentParams, InvitationParams, InviteInput, SeatsInput, type AgentView, type TeamView } from '../../../common/teams.contract.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { Outcome } from '../../components/admin/outcome.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmedForm } from '../../components/ui/confirmed-form.tsx';
import { Input, Textarea } from '../../components/ui/field.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/team';

// The broker's team: its plan and seats, inviting agents, the invitations still waiting, and each
// agent's courses, progress and certificates (nothing else of theirs); removing an agent, adding seats.

export const meta = () => pageMeta({ title: 'Your team', description: 'Your agents, their seats and their progress.' });

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const after = z
    .string()
    .max(300)
    .safeParse(new URL(request.url).searchParams.get('after') ?? undefined);
  const team = await attempt(() => services.teams.myTeam(viewer, after.success && after.data ? { after: after.data } : {}));
  if (!team.ok) return { team: null, refusal: team.message };
  if (!team.value) throw redirect('/team/new');
  return { team: team.value, refusal: null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { services, viewer } = memberPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  switch (form.get('intent')) {
    case 'invite': {
      const input = InviteInput.safeParse({ emails: form.get('emails') });
      if (!input.success) return refusedBy(input.error);
      const done = await attempt(() => services.teams.invite(viewer, input.data.emails));
      return done.ok
        ? { ok: true as const, message: `${done.value.invited} ${done.value.invited === 1 ? 'invitation' : 'invitations'} sent.` }
        : done.refusal;
    }
    case 'withdraw': {
      const target = InvitationParams.safeParse({ id: form.get('invitationId') });
      if (!target.success) return formErrors('Choose an invitation.');
      const done = await attempt(() => services.teams.withdraw(viewer, target.data.id));
      return done.ok ? { ok: true as const, message: 'Invitation withdrawn.' } : done.refusal;
    }
    case 'remove': {
      const target = AgentParams.safeParse({ id: form.get('agentId') });
      if (!target.success) return formErrors('Choose an agent.');
      const done = await attempt(() => services.teams.removeAgent(viewer, target.data.id));
      return done.ok ? { ok: true as const, message: 'The agent no longer holds a seat; it is free again.' } : done.refusal;
    }
    case 'seats': {
      const input = SeatsInput.safeParse({ seats: form.get('seats') });
      if (!input.success) return refusedBy(input.error);
      const done = await attempt(() => services.teams.setSeats(viewer, input.data.seats));
      return done.ok ? { ok: true as const, message: `Your team has ${done.value.seats} seats.` } : done.refusal;
    }
    default:
      return formErrors('Choose what to do.');
  }
}

function AgentRow({ agent }: { agent: AgentView }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <Card as="li" className="p-4" data-agent-email={agent.email}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold text-gray-900">{agent.name}</p>
          <p className="text-sm break-all text-gray-600">
            {agent.email} · joined {formatDate(agent.joined_at)}
          </p>
        </div>
        <ConfirmedForm
          fetcher={fetcher}
          question={`Remove ${agent.name} from the team? Their seat is free again.`}
          fields={{ intent: 'remove', agentId: agent.id }}
        >
          <Button type="submit" size="sm" variant="outline">
            Remove
          </Button>
        </ConfirmedForm>
      </div>
      {agent.courses.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">No course started yet.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm text-gray-800">
          {agent.courses.map((course) => (
            <li key={course.id}>
              {course.title}: {course.progress_percent}%
            </li>
          ))}
        </ul>
      )}
      {agent.certificates.length > 0 && (
        <p className="mt-1 text-sm text-gray-700">
          Certificates: {agent.certificates.map((certificate) => certificate.course_title).join(', ')}
        </p>
      )}
      {agent.licences.length > 0 && (
        <ul className="mt-1 space-y-1 text-sm text-gray-800" aria-label={`${agent.name}’s licences`}>
          {agent.licences.map((licence) => (
            <li key={licence.state}>
              {licence.state} licence:{' '}
              {!licence.known
                ? 'no requirement kept for the state'
                : licence.hours_missing === 0
                  ? 'CE hours complete'
                  : `${licence.hours_missing} CE hours missing, ${licence.on_track ? 'on track' : 'behind'}`}
            </li>
          ))}
        </ul>
      )}
      <Outcome answer={fetcher.data} />
    </Card>
  );
}

function TeamPage({ team }: { team: TeamView }) {
  const invite = useFetcher<typeof action>();
  const seats = useFetcher<typeof action>();
  const withdraw = useFetcher<typeof action>();
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">{team.name}</h1>
      <Card as="section" className="space-y-2 p-5" data-testid="team-plan">
        <p className="text-lg font-bold text-brand-800">
          {TIER_LABEL[team.tier]} for your agents · {team.seats_taken} of {team.seats} seats taken
        </p>
        <p className="text-sm text-gray-700">
          {formatCents(team.price_per_seat_cents)} per seat a {team.period === 'monthly' ? 'month' : 'year'}
          {team.current_period_end && ` · renews on ${formatDate(team.current_period_end)}`}
        </p>
        {!team.active && (
          <p className="text-sm font-semibold text-red-700">This plan is not active: its seats give nothing until it is paid.</p>
        )}
        <seats.Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="seats" />
          <Input
            compact
            label="Seats"
            name="seats"
            type="number"
            min={Math.max(TEAMS.minSeats, team.seats_taken)}
            max={TEAMS.maxSeats}
            defaultValue={team.seats}
            className="w-28"
          />
          <Button type="submit" size="sm" variant="outline" disabled={seats.state !== 'idle'}>
            Change seats
          </Button>
        </seats.Form>
        <Outcome answer={seats.data} />
      </Card>

      <Card as="section" className="space-y-3 p-5">
        <h2 className="font-bold text-gray-900">Invite agents</h2>
        <invite.Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="invite" />
          <Textarea label="Their email addresses (commas or one per line)" name="emails" rows={3} required />
          <Button type="submit" size="sm" disabled={invite.state !== 'idle' || !team.active}>
            Send invitations
          </Button>
        </invite.Form>
        <Outcome answer={invite.data} />
        {team.invitations.length > 0 && (
          <ul className="space-y-1 text-sm text-gray-700" aria-label="Invitations waiting">
            {team.invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2">
                <span className="break-all">
                  {invitation.email} · invited {formatDate(invitation.created_at)}
                </span>
                <withdraw.Form method="post">
                  <input type="hidden" name="intent" value="withdraw" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <button type="submit" className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600">
                    Withdraw
                  </button>
                </withdraw.Form>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <section className="space-y-3" aria-labelledby="agents-title">
        <h2 id="agents-title" className="text-lg font-bold text-gray-900">
          Your agents
        </h2>
        {team.agents.length === 0 ? (
          <p className="text-gray-700">No agent holds a seat yet: invite them above.</p>
        ) : (
          <ul className="space-y-3">
            {team.agents.map((agent) => (
              <AgentRow key={agent.id} agent={agent} />
            ))}
          </ul>
        )}
        <Pager param="after" next={team.next_cursor} label="More agents" />
      </section>
    </div>
  );
}

export default function Team({ loaderData }: Route.ComponentProps) {
  if (!loaderData.team) return <p className="mx-auto max-w-3xl px-4 py-8 text-gray-700">{loaderData.refusal}</p>;
  return <TeamPage team={loaderData.team} />;
}
