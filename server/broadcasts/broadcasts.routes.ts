import { z } from 'zod';
import { BroadcastInput, MemberBroadcast, SendInput, StaffBroadcast } from '../../common/broadcasts.contract.ts';
import { notFound } from '../../common/errors.ts';
import { SuccessResponse, uuidParam } from '../../common/fields.ts';
import { TEXT_MAX } from '../../common/limits.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { TIERS } from '../../common/tiers.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

const BroadcastParams = z.object({ id: uuidParam('Broadcast') });
const Preview = z.object(Object.fromEntries(TIERS.map((tier) => [tier, MemberBroadcast.shape.blocks])));

export async function broadcastsRoutes(app: ZodApp) {
  const { broadcasts } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: { area: 'broadcasts' } } as const;

  app.get(
    '/api/broadcasts',
    { config: member, schema: { querystring: BeforeQuery, response: withErrors({ 200: z.array(MemberBroadcast) }) } },
    async (request, reply) => arrayPage(request, reply, await broadcasts.past(await request.viewer(), request.query), 'before'),
  );

  app.get(
    '/api/broadcasts/:id',
    { config: member, schema: { params: BroadcastParams, response: withErrors({ 200: MemberBroadcast }) } },
    async (request) => broadcasts.read(await request.viewer(), request.params.id),
  );

  // A link in a broadcast's mail: counted, then on to the address (one the broadcast holds; else 404).
  app.get(
    '/api/broadcasts/:id/go',
    { schema: { params: BroadcastParams, querystring: z.object({ to: z.string().max(TEXT_MAX.link, 'This link is not valid') }) } },
    async (request, reply) => {
      const target = await broadcasts.click(request.params.id, request.query.to);
      if (!target) throw notFound('This link is not in the broadcast.');
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  );

  app.get(
    '/api/admin/broadcasts',
    { config: staff, schema: { querystring: BeforeQuery, response: withErrors({ 200: z.array(StaffBroadcast) }) } },
    async (request, reply) => arrayPage(request, reply, await broadcasts.list(await request.viewer(), request.query), 'before'),
  );

  app.post(
    '/api/admin/broadcasts',
    { config: staff, schema: { body: BroadcastInput, response: withErrors({ 201: StaffBroadcast }) } },
    async (request, reply) => reply.status(201).send(await broadcasts.create(await request.viewer(), request.body)),
  );

  app.put(
    '/api/admin/broadcasts/:id',
    { config: staff, schema: { params: BroadcastParams, body: BroadcastInput, response: withErrors({ 200: StaffBroadcast }) } },
    async (request) => broadcasts.update(await request.viewer(), request.params.id, request.body),
  );

  app.get(
    '/api/admin/broadcasts/:id/preview',
    { config: staff, schema: { params: BroadcastParams, response: withErrors({ 200: Preview }) } },
    async (request) => broadcasts.preview(await request.viewer(), request.params.id),
  );

  app.post(
    '/api/admin/broadcasts/:id/test',
    { config: staff, schema: { params: BroadcastParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await broadcasts.sendTest(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/broadcasts/:id/send',
    { config: staff, schema: { params: BroadcastParams, body: SendInput, response: withErrors({ 200: StaffBroadcast }) } },
    async (request) => broadcasts.send(await request.viewer(), request.params.id, request.body),
  );
}
