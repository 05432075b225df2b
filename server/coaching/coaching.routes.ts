import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  Attendee,
  CalendarFeedCreated,
  CalendarFeedStatus,
  CoachingHost,
  DisplayNameInput,
  MoveInput,
  RecordingInput,
  RecordingList,
  SeriesInput,
  SeriesParams,
  SeriesUpdate,
  SessionList,
  SessionParams,
  SessionView,
  StaffSessionList,
  StaffSessionsQuery,
  StaffSessionView,
} from '../../common/coaching.contract.ts';
import { Transcript, TranscriptQuery } from '../../common/captions.contract.ts';
import { notFound } from '../../common/errors.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { AfterQuery, BeforeQuery } from '../../common/paging.ts';
import { sendStoredFile } from '../files/send-file.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

const FeedParams = z.object({ token: z.string().max(120) });

/**
 * Whether a join comes from the site itself, so recording attendance is the member's own doing: a
 * click on the page's 'Join now' (or an address they typed) by Sec-Fetch-Site, or by the Referer where
 * a browser sends no Sec-Fetch-Site; or a Bearer client, whose token no other site can send. A link
 * elsewhere, an <img>, a sibling subdomain, or a request that shows nothing of where it comes from do not.
 */
function joinAskedOnSite(request: FastifyRequest, publicUrl: string): boolean {
  if (/^Bearer\s+\S+$/i.test(request.headers.authorization ?? '')) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return (site === 'same-origin' || site === 'none') && request.headers['sec-fetch-mode'] === 'navigate';
  const referer = URL.parse(request.headers.referer ?? '');
  return referer !== null && [new URL(publicUrl).origin, `${request.protocol}://${request.host}`].includes(referer.origin);
}

export async function coachingRoutes(app: ZodApp) {
  const { coaching, coachingAdmin, fileDelivery } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: { area: 'coaching' } } as const;

  app.get(
    '/api/coaching/sessions',
    { config: member, schema: { querystring: AfterQuery, response: withErrors({ 200: SessionList }) } },
    async (request, reply) => arrayPage(request, reply, await coaching.upcoming(await request.viewer(), request.query), 'after'),
  );

  app.get(
    '/api/coaching/sessions/:id',
    { config: member, schema: { params: SessionParams, response: withErrors({ 200: SessionView }) } },
    async (request) => coaching.session(await request.viewer(), request.params.id),
  );

  app.post(
    '/api/coaching/sessions/:id/rsvp',
    { config: member, schema: { params: SessionParams, response: withErrors({ 201: SessionView }) } },
    async (request, reply) => reply.status(201).send(await coaching.rsvp(await request.viewer(), request.params.id)),
  );

  app.delete(
    '/api/coaching/sessions/:id/rsvp',
    { config: member, schema: { params: SessionParams, response: withErrors({ 200: SessionView }) } },
    async (request) => coaching.cancelRsvp(await request.viewer(), request.params.id),
  );

  app.post(
    '/api/coaching/sessions/:id/waitlist',
    { config: member, schema: { params: SessionParams, response: withErrors({ 201: SessionView }) } },
    async (request, reply) => reply.status(201).send(await coaching.joinWaitlist(await request.viewer(), request.params.id)),
  );

  app.delete(
    '/api/coaching/sessions/:id/waitlist',
    { config: member, schema: { params: SessionParams, response: withErrors({ 200: SessionView }) } },
    async (request) => coaching.leaveWaitlist(await request.viewer(), request.params.id),
  );

  // The member goes on to the meeting from here, so their attendance is recorded on the way. A link (not
  // a form: the CSP's form-action keeps forms to the site, and meetings are elsewhere), so asked for from
  // another site it records nothing and leads to the session on the coaching page, where 'Join now' is.
  app.get('/api/coaching/sessions/:id/join', { config: member, schema: { params: SessionParams } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!joinAskedOnSite(request, app.config.publicUrl)) return reply.redirect(`/coaching#session-${request.params.id}`, 303);
    const { url } = await coaching.join(await request.viewer(), request.params.id);
    return reply.redirect(url, 303);
  });

  app.get('/api/coaching/sessions/:id/calendar.ics', { config: member, schema: { params: SessionParams } }, async (request, reply) => {
    const file = await coaching.calendarFile(await request.viewer(), request.params.id);
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .send(file.body);
  });

  app.get(
    '/api/coaching/recordings',
    { config: member, schema: { querystring: BeforeQuery, response: withErrors({ 200: RecordingList }) } },
    async (request, reply) => arrayPage(request, reply, await coaching.recordings(await request.viewer(), request.query)),
  );

  // A recording's transcript (the words under the player), for whom the recording opens.
  app.get(
    '/api/coaching/recordings/:id/transcript',
    { schema: { params: SessionParams, querystring: TranscriptQuery, response: withErrors({ 200: Transcript }) } },
    async (request) => coaching.recordingTranscript(await request.viewer(), request.params.id, request.query.language),
  );

  app.get('/api/coaching/recordings/:id/video', { schema: { params: SessionParams } }, async (request, reply) => {
    const { file, membersOnly } = await fileDelivery.sessionRecording(await request.viewer(), request.params.id);
    return sendStoredFile(request, reply, app.storage, file, { membersOnly });
  });

  // A calendar app fetches this with no cookie: the secret in the address is the key.
  app.get('/api/coaching/calendar/:token', { schema: { params: FeedParams } }, async (request, reply) => {
    const body = await coaching.feed(request.params.token.replace(/\.ics$/, ''));
    if (body === null) throw notFound('This calendar address is not valid any more. Make a new one on the coaching page.');
    return reply.header('content-type', 'text/calendar; charset=utf-8').header('cache-control', 'private, no-store').send(body);
  });

  app.get(
    '/api/coaching/calendar-feed',
    { config: member, schema: { response: withErrors({ 200: CalendarFeedStatus }) } },
    async (request) => coaching.feedStatus(await request.viewer()),
  );

  app.post(
    '/api/coaching/calendar-feed',
    { config: member, schema: { response: withErrors({ 201: CalendarFeedCreated }) } },
    async (request, reply) => reply.status(201).send(await coaching.resetFeed(await request.viewer())),
  );

  app.delete(
    '/api/coaching/calendar-feed',
    { config: member, schema: { response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await coaching.stopFeed(await request.viewer());
      return { success: true as const };
    },
  );

  // ---- Staff ---------------------------------------------------------------------------------

  app.get(
    '/api/admin/coaching/sessions',
    { config: staff, schema: { querystring: StaffSessionsQuery, response: withErrors({ 200: StaffSessionList }) } },
    async (request, reply) => arrayPage(request, reply, await coachingAdmin.sessions(await request.viewer(), request.query), 'cursor'),
  );

  app.get(
    '/api/admin/coaching/sessions/:id',
    { config: staff, schema: { params: SessionParams, response: withErrors({ 200: StaffSessionView }) } },
    async (request) => coachingAdmin.session(await request.viewer(), request.params.id),
  );

  app.get(
    '/api/admin/coaching/sessions/:id/attendees',
    { config: staff, schema: { params: SessionParams, querystring: BeforeQuery, response: withErrors({ 200: z.array(Attendee) }) } },
    async (request, reply) =>
      arrayPage(request, reply, await coachingAdmin.attendees(await request.viewer(), request.params.id, request.query)),
  );

  app.get(
    '/api/admin/coaching/hosts',
    { config: staff, schema: { response: withErrors({ 200: z.array(CoachingHost) }) } },
    async (request) => coachingAdmin.hosts(await request.viewer()),
  );

  app.post(
    '/api/admin/coaching/series',
    { config: staff, schema: { body: SeriesInput, response: withErrors({ 201: StaffSessionView }) } },
    async (request, reply) => reply.status(201).send(await coachingAdmin.schedule(await request.viewer(), request.body)),
  );

  app.patch(
    '/api/admin/coaching/series/:id',
    { config: staff, schema: { params: SeriesParams, body: SeriesUpdate, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await coachingAdmin.updateSeries(await request.viewer(), request.params.id, request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/coaching/series/:id/end',
    { config: staff, schema: { params: SeriesParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await coachingAdmin.endSeries(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/coaching/sessions/:id/move',
    { config: staff, schema: { params: SessionParams, body: MoveInput, response: withErrors({ 200: StaffSessionView }) } },
    async (request) => coachingAdmin.move(await request.viewer(), request.params.id, request.body),
  );

  app.post(
    '/api/admin/coaching/sessions/:id/cancel',
    { config: staff, schema: { params: SessionParams, response: withErrors({ 200: StaffSessionView }) } },
    async (request) => coachingAdmin.cancel(await request.viewer(), request.params.id),
  );

  app.put(
    '/api/admin/coaching/sessions/:id/recording',
    { config: staff, schema: { params: SessionParams, body: RecordingInput, response: withErrors({ 200: StaffSessionView }) } },
    async (request) => coachingAdmin.record(await request.viewer(), request.params.id, request.body),
  );

  app.put(
    '/api/admin/coaching/display-name',
    { config: staff, schema: { body: DisplayNameInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await coachingAdmin.setDisplayName(await request.viewer(), request.body.display_name);
      return { success: true as const };
    },
  );
}
