import { Readable } from 'node:stream';
import {
  AdminMemberList,
  EarlyOpening,
  EarlyOpeningInput,
  MemberDetail,
  MemberDetailQuery,
  MemberParams,
  MembersOverview,
  MembersQuery,
  MemberTierInput,
  MemberTierResponse,
} from '../../common/admin.contract.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function membersRoutes(app: ZodApp) {
  const { members } = app.services;
  // The members and what they pay are the owners' (common/policies.ts).
  const staff = { access: { area: 'members' } } as const;

  app.get(
    '/api/admin/members',
    { config: staff, schema: { querystring: MembersQuery, response: withErrors({ 200: AdminMemberList }) } },
    async (request, reply) => arrayPage(request, reply, await members.search(await request.viewer(), request.query)),
  );

  // Streamed page by page, so an export of any size is complete; CSV, not JSON, so only its input is declared.
  app.get('/api/admin/members/export.csv', { config: staff, schema: { querystring: MembersQuery } }, async (request, reply) => {
    const lines = members.exportCsv(await request.viewer(), request.query.search);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="members.csv"')
      .send(Readable.from(lines));
  });

  app.post(
    '/api/admin/members/:id/tier',
    { config: staff, schema: { params: MemberParams, body: MemberTierInput, response: withErrors({ 200: MemberTierResponse }) } },
    async (request) => members.setTier(await request.viewer(), request.params.id, request.body.membership_tier),
  );

  app.post(
    '/api/admin/members/:id/early-openings',
    { config: staff, schema: { params: MemberParams, body: EarlyOpeningInput, response: withErrors({ 201: EarlyOpening }) } },
    async (request, reply) => reply.code(201).send(await members.openCourseEarly(await request.viewer(), request.params.id, request.body)),
  );

  app.get(
    '/api/admin/members/:id',
    { config: staff, schema: { params: MemberParams, querystring: MemberDetailQuery, response: withErrors({ 200: MemberDetail }) } },
    async (request) => members.detail(await request.viewer(), request.params.id, request.query),
  );

  app.get('/api/admin/overview', { config: staff, schema: { response: withErrors({ 200: MembersOverview }) } }, async (request) =>
    members.overview(await request.viewer()),
  );
}
