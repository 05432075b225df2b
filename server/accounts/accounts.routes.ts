import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  AccountDeletion,
  EmailChangeRequest,
  MessageResponse,
  NameChange,
  PasswordChange,
  PasswordResetConfirm,
  PasswordResetRequest,
  TokenInput,
  UnsubscribeInput,
  WeeklyTipsInput,
} from '../../common/account.contract.ts';
import { TimeZoneInput } from '../../common/coaching.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

const PasswordChanged = z.object({ success: z.literal(true), ended: z.number().int() });

export async function accountsRoutes(app: ZodApp) {
  const { account } = app.services;
  const member = { access: 'member' } as const;
  const ok = { success: true as const };

  // Settings of the member's own: their time zone, and the weekly tips email.
  app.put(
    '/api/account/weekly-tips',
    { config: member, schema: { body: WeeklyTipsInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.setWeeklyTips(await request.viewer(), request.body.weekly_tips);
      return ok;
    },
  );

  app.put(
    '/api/account/time-zone',
    { config: member, schema: { body: TimeZoneInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.setTimeZone(await request.viewer(), request.body.time_zone);
      return ok;
    },
  );

  // Password reset (SPEC: 'Forgot password?'): the same answer whether or not the account exists.
  app.post(
    '/api/auth/password-reset',
    { schema: { body: PasswordResetRequest, response: withErrors({ 200: MessageResponse }) } },
    async (request) => account.requestPasswordReset(await request.viewer(), request.body.email),
  );
  app.post(
    '/api/auth/password-reset/confirm',
    { schema: { body: PasswordResetConfirm, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.resetPassword(await request.viewer(), request.body);
      return ok;
    },
  );
  app.post(
    '/api/admin/password-reset',
    { schema: { body: PasswordResetRequest, response: withErrors({ 200: MessageResponse }) } },
    async (request) => account.requestStaffPasswordReset(await request.viewer(), request.body.email),
  );
  app.post(
    '/api/admin/password-reset/confirm',
    { schema: { body: PasswordResetConfirm, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.resetStaffPassword(await request.viewer(), request.body);
      return ok;
    },
  );

  app.post('/api/auth/verify-email', { schema: { body: TokenInput, response: withErrors({ 200: SuccessResponse }) } }, async (request) => {
    await account.verifyEmail(await request.viewer(), request.body.token);
    return ok;
  });
  app.post(
    '/api/auth/verify-email/resend',
    { config: member, schema: { response: withErrors({ 200: MessageResponse }) } },
    async (request) => account.resendVerification(await request.viewer()),
  );

  // The member's own data, as one JSON file to keep (streamed: however much they wrote).
  app.get('/api/account/export', { config: member }, async (request, reply) => {
    const pieces = await account.exportData(await request.viewer());
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="realtypocket-my-data-${day}.json"`)
      .send(Readable.from(pieces));
  });

  app.post(
    '/api/account/name',
    { config: member, schema: { body: NameChange, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.changeName(await request.viewer(), request.body.name);
      return ok;
    },
  );
  app.post(
    '/api/account/email',
    { config: member, schema: { body: EmailChangeRequest, response: withErrors({ 200: MessageResponse }) } },
    async (request) => account.requestEmailChange(await request.viewer(), request.body),
  );
  app.post(
    '/api/account/email/confirm',
    { schema: { body: TokenInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.confirmEmailChange(await request.viewer(), request.body.token);
      return ok;
    },
  );
  app.post(
    '/api/account/password',
    { config: member, schema: { body: PasswordChange, response: withErrors({ 200: PasswordChanged }) } },
    async (request) => ({
      success: true as const,
      ended: await account.changePassword(await request.viewer(), request.body),
    }),
  );
  app.post(
    '/api/account/delete',
    { config: member, schema: { body: AccountDeletion, response: withErrors({ 200: SuccessResponse }) } },
    async (request, reply) => {
      await account.deleteAccount(await request.viewer(), request.body.password);
      app.siteCookies.clearSession(request, reply, 'member');
      return ok;
    },
  );

  // RFC 8058 one-click unsubscribe: mail clients POST here (body `List-Unsubscribe=One-Click`).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/api/email/unsubscribe',
    { schema: { querystring: UnsubscribeInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await account.unsubscribe(request.query.token);
      return ok;
    },
  );
}
