import { SuccessResponse } from '../../common/fields.ts';
import { UrlResponse } from '../../common/billing.contract.ts';
import { notFound } from '../../common/errors.ts';
import {
  AgentParams,
  INVITATION_NOT_VALID,
  InvitationParams,
  InvitationView,
  InviteInput,
  JoinInput,
  NO_TEAM,
  QuoteParams,
  SeatsInput,
  TeamCheckoutInput,
  TeamPrices,
  TeamQuery,
  TeamQuoteInput,
  TeamQuoteView,
  TeamView,
} from '../../common/teams.contract.ts';
import { z } from 'zod';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function teamsRoutes(app: ZodApp) {
  const { teams, teamsAdmin } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: { area: 'billing' } } as const;

  app.get('/api/teams/prices', { schema: { response: withErrors({ 200: TeamPrices }) } }, async () => teams.prices());

  app.post(
    '/api/teams/checkout',
    { config: member, schema: { body: TeamCheckoutInput, response: withErrors({ 200: UrlResponse }) } },
    async (request) => teams.checkout(await request.viewer(), request.body),
  );

  app.get(
    '/api/teams/mine',
    { config: member, schema: { querystring: TeamQuery, response: withErrors({ 200: TeamView }) } },
    async (request) => {
      const team = await teams.myTeam(await request.viewer(), request.query);
      if (!team) throw notFound(NO_TEAM);
      return team;
    },
  );

  app.post(
    '/api/teams/mine/invitations',
    { config: member, schema: { body: InviteInput, response: withErrors({ 201: z.object({ invited: z.number().int() }) }) } },
    async (request, reply) => reply.status(201).send(await teams.invite(await request.viewer(), request.body.emails)),
  );

  app.delete(
    '/api/teams/mine/invitations/:id',
    { config: member, schema: { params: InvitationParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await teams.withdraw(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.delete(
    '/api/teams/mine/agents/:id',
    { config: member, schema: { params: AgentParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await teams.removeAgent(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.put(
    '/api/teams/mine/seats',
    { config: member, schema: { body: SeatsInput, response: withErrors({ 200: TeamView }) } },
    async (request) => teams.setSeats(await request.viewer(), request.body.seats),
  );

  // What an invitation link opens (the join page), without using it.
  app.post('/api/teams/invitation', { schema: { body: JoinInput, response: withErrors({ 200: InvitationView }) } }, async (request) => {
    const invitation = await teams.invitation(request.body.token);
    if (!invitation) throw notFound(INVITATION_NOT_VALID);
    return invitation;
  });

  app.post(
    '/api/teams/join',
    { config: member, schema: { body: JoinInput, response: withErrors({ 200: z.object({ team_name: z.string(), tier: z.string() }) }) } },
    async (request) => teams.join(await request.viewer(), request.body.token),
  );

  app.get(
    '/api/teams/quotes/:id',
    { config: member, schema: { params: QuoteParams, response: withErrors({ 200: TeamQuoteView }) } },
    async (request) => teams.quote(await request.viewer(), request.params.id),
  );

  app.post(
    '/api/admin/team-quotes',
    { config: staff, schema: { body: TeamQuoteInput, response: withErrors({ 200: TeamQuoteView }) } },
    async (request) => teamsAdmin.makeQuote(await request.viewer(), request.body),
  );

  app.get('/api/admin/team-prices', { config: staff, schema: { response: withErrors({ 200: TeamPrices }) } }, async (request) =>
    teamsAdmin.prices(await request.viewer()),
  );

  app.put(
    '/api/admin/team-prices',
    { config: staff, schema: { body: TeamPrices, response: withErrors({ 200: TeamPrices }) } },
    async (request) => teamsAdmin.setPrices(await request.viewer(), request.body),
  );
}
