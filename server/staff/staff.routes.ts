import {
  StaffAccount,
  StaffAccountList,
  StaffInvitation,
  StaffParams,
  StaffRoleInput,
  StaffSessionResponse,
} from '../../common/admin.contract.ts';
import { StaffLoginInput, StaffTokenResponse } from '../../common/auth.contract.ts';
import { EmailChangeRequest, MessageResponse, PasswordChange } from '../../common/account.contract.ts';
import {
  RecoveryCodes,
  TwoFactorConfirmInput,
  TwoFactorRequiredInput,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../common/two-factor.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function staffRoutes(app: ZodApp) {
  const { auth, staff, twoFactor } = app.services;
  const cookies = app.siteCookies;

  app.post(
    '/api/admin/login',
    { schema: { body: StaffLoginInput, response: withErrors({ 200: StaffTokenResponse }) } },
    async (request, reply) => {
      const session = await auth.staffSignIn(await request.viewer(), request.body);
      cookies.setSession(request, reply, 'staff', session.token, session.expiresAt);
      return { token: session.token, email: session.email };
    },
  );

  app.post('/api/admin/logout', { schema: { response: withErrors({ 200: SuccessResponse }) } }, async (request, reply) => {
    await auth.staffSignOut(await request.viewer());
    cookies.clearSession(request, reply, 'staff');
    return { success: true as const };
  });

  // Any staff session, even one that must set up two-factor sign-in first: the admin pages read it to know.
  app.get(
    '/api/admin/session',
    { config: { access: 'staff-sign-in' }, schema: { response: withErrors({ 200: StaffSessionResponse }) } },
    async (request) => staff.session(await request.viewer()),
  );

  // Two-factor sign-in: each staff member's own, set up from any staff session; owners may require it.
  // Turning it on or off and new recovery codes take the password again, and a code (counted per account).
  const setup = { access: 'staff-sign-in' } as const;
  app.get('/api/admin/two-factor', { config: setup, schema: { response: withErrors({ 200: TwoFactorStatus }) } }, async (request) =>
    twoFactor.status(await request.viewer()),
  );
  app.post('/api/admin/two-factor/setup', { config: setup, schema: { response: withErrors({ 200: TwoFactorSetup }) } }, async (request) =>
    twoFactor.begin(await request.viewer()),
  );
  app.post(
    '/api/admin/two-factor/enable',
    { config: setup, schema: { body: TwoFactorConfirmInput, response: withErrors({ 200: RecoveryCodes }) } },
    async (request) => twoFactor.enable(await request.viewer(), request.body),
  );
  app.post(
    '/api/admin/two-factor/disable',
    { config: { access: 'staff' }, schema: { body: TwoFactorConfirmInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await twoFactor.disable(await request.viewer(), request.body);
      return { success: true as const };
    },
  );
  app.post(
    '/api/admin/two-factor/recovery-codes',
    { config: { access: 'staff' }, schema: { body: TwoFactorConfirmInput, response: withErrors({ 200: RecoveryCodes }) } },
    async (request) => twoFactor.newRecoveryCodes(await request.viewer(), request.body),
  );

  // The staff member's own email and password, with the password again. A new password ends every
  // session of the account, this one too: its cookie goes with it.
  app.post(
    '/api/admin/account/email',
    { config: { access: 'staff' }, schema: { body: EmailChangeRequest, response: withErrors({ 200: MessageResponse }) } },
    async (request) => staff.changeEmail(await request.viewer(), request.body),
  );
  app.post(
    '/api/admin/account/password',
    { config: { access: 'staff' }, schema: { body: PasswordChange, response: withErrors({ 200: SuccessResponse }) } },
    async (request, reply) => {
      await staff.changePassword(await request.viewer(), request.body);
      cookies.clearSession(request, reply, 'staff');
      return { success: true as const };
    },
  );
  app.post(
    '/api/admin/two-factor/required',
    { config: { access: { area: 'staff' } }, schema: { body: TwoFactorRequiredInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await twoFactor.setRequired(await request.viewer(), request.body.required);
      return { success: true as const };
    },
  );

  // Owners only (the service checks the role).
  const staffOnly = { access: { area: 'staff' } } as const;
  // A page of accounts; the next is named in `Link` (the answer stays an array).
  app.get(
    '/api/admin/staff',
    { config: staffOnly, schema: { querystring: BeforeQuery, response: withErrors({ 200: StaffAccountList }) } },
    async (request, reply) => arrayPage(request, reply, await staff.list(await request.viewer(), request.query)),
  );
  app.post(
    '/api/admin/staff',
    { config: staffOnly, schema: { body: StaffInvitation, response: withErrors({ 201: StaffAccount }) } },
    async (request, reply) => reply.status(201).send(await staff.invite(await request.viewer(), request.body)),
  );
  app.post(
    '/api/admin/staff/:id/role',
    { config: staffOnly, schema: { params: StaffParams, body: StaffRoleInput, response: withErrors({ 200: StaffAccount }) } },
    async (request) => staff.setRole(await request.viewer(), request.params.id, request.body.role),
  );
  // Lifts the lock wrong two-factor codes put on another staff member's account.
  app.delete(
    '/api/admin/staff/:id/two-factor-lock',
    { config: staffOnly, schema: { params: StaffParams, response: withErrors({ 200: StaffAccount }) } },
    async (request) => staff.liftTwoFactorLock(await request.viewer(), request.params.id),
  );
  app.delete(
    '/api/admin/staff/:id',
    { config: staffOnly, schema: { params: StaffParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await staff.remove(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );
}
