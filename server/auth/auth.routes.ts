import { z } from 'zod';
import { DeviceList, LoginInput, MeResponse, RegisterInput, RevokeOthersResponse, TokenResponse } from '../../common/auth.contract.ts';
import { SuccessResponse, uuidParam } from '../../common/fields.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function authRoutes(app: ZodApp) {
  const { auth } = app.services;
  const cookies = app.siteCookies;

  app.post(
    '/api/auth/register',
    { schema: { body: RegisterInput, response: withErrors({ 201: TokenResponse }) } },
    async (request, reply) => {
      const session = await auth.register(await request.viewer(), request.body);
      cookies.setSession(request, reply, 'member', session.token, session.expiresAt);
      return reply.status(201).send({ token: session.token });
    },
  );

  // A fresh token at every sign-in.
  app.post('/api/auth/login', { schema: { body: LoginInput, response: withErrors({ 200: TokenResponse }) } }, async (request, reply) => {
    const session = await auth.signIn(await request.viewer(), request.body);
    cookies.setSession(request, reply, 'member', session.token, session.expiresAt);
    return { token: session.token };
  });

  app.get('/api/auth/me', { config: { access: 'member' }, schema: { response: withErrors({ 200: MeResponse }) } }, async (request) =>
    auth.me(await request.viewer()),
  );

  app.post('/api/auth/logout', { schema: { response: withErrors({ 200: SuccessResponse }) } }, async (request, reply) => {
    await auth.signOut(await request.viewer());
    cookies.clearSession(request, reply, 'member');
    return { success: true as const };
  });

  // The member's devices (sessions that still work), and signing one of them out.
  app.get(
    '/api/account/sessions',
    { config: { access: 'member' }, schema: { response: withErrors({ 200: DeviceList }) } },
    async (request) => auth.devices(await request.viewer()),
  );
  app.delete(
    '/api/account/sessions/:id',
    {
      config: { access: 'member' },
      schema: { params: z.object({ id: uuidParam('Device') }), response: withErrors({ 200: SuccessResponse }) },
    },
    async (request) => {
      await auth.signOutDevice(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    { config: { access: 'member' }, schema: { response: withErrors({ 200: RevokeOthersResponse }) } },
    async (request) => ({ success: true as const, ended: await auth.revokeOtherSessions(await request.viewer()) }),
  );
}
