import {
  Availability,
  BookingInput,
  BookingParams,
  BookingView,
  CoachBookingList,
  CoachList,
  FreeSlots,
  MyOneOnOnes,
  RescheduleInput,
  SlotsQuery,
} from '../../common/one-on-one.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { AfterQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function oneOnOneRoutes(app: ZodApp) {
  const { oneOnOne, oneOnOneCoach } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: { area: 'coaching' } } as const;

  app.get('/api/one-on-one/coaches', { config: member, schema: { response: withErrors({ 200: CoachList }) } }, async (request) =>
    oneOnOne.coaches(await request.viewer()),
  );

  app.get('/api/one-on-one/bookings', { config: member, schema: { response: withErrors({ 200: MyOneOnOnes }) } }, async (request) =>
    oneOnOne.mine(await request.viewer()),
  );

  app.get(
    '/api/one-on-one/slots',
    { config: member, schema: { querystring: SlotsQuery, response: withErrors({ 200: FreeSlots }) } },
    async (request) => oneOnOne.freeSlots(await request.viewer(), request.query),
  );

  app.post(
    '/api/one-on-one/bookings',
    { config: member, schema: { body: BookingInput, response: withErrors({ 201: BookingView }) } },
    async (request, reply) => reply.status(201).send(await oneOnOne.book(await request.viewer(), request.body)),
  );

  app.post(
    '/api/one-on-one/bookings/:id/reschedule',
    { config: member, schema: { params: BookingParams, body: RescheduleInput, response: withErrors({ 200: BookingView }) } },
    async (request) => oneOnOne.reschedule(await request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/api/one-on-one/bookings/:id',
    { config: member, schema: { params: BookingParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await oneOnOne.cancel(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.get('/api/one-on-one/bookings/:id/calendar.ics', { config: member, schema: { params: BookingParams } }, async (request, reply) => {
    const file = await oneOnOne.calendarFile(await request.viewer(), request.params.id);
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .send(file.body);
  });

  app.get(
    '/api/admin/one-on-one/availability',
    { config: staff, schema: { response: withErrors({ 200: Availability }) } },
    async (request) => oneOnOneCoach.availability(await request.viewer()),
  );

  app.put(
    '/api/admin/one-on-one/availability',
    { config: staff, schema: { body: Availability, response: withErrors({ 200: Availability }) } },
    async (request) => oneOnOneCoach.setAvailability(await request.viewer(), request.body),
  );

  app.get(
    '/api/admin/one-on-one/bookings',
    { config: staff, schema: { querystring: AfterQuery, response: withErrors({ 200: CoachBookingList }) } },
    async (request, reply) => arrayPage(request, reply, await oneOnOneCoach.bookings(await request.viewer(), request.query), 'after'),
  );
}
