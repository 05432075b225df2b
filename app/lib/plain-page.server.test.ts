import { describe, expect, it } from 'vitest';
import type { EntryContext } from 'react-router';
import { isPlainPage } from './plain-page.server.ts';

const visitor = { member: null, staff: null };
const member = { member: { name: 'Ann', email: 'ann@example.com', membership_tier: 'free', time_zone: null }, staff: null };
const staff = { member: null, staff: { email: 'owner@example.com', role: 'owner' } };

/** What React Router hands the server entry, reduced to what the decision reads. */
function rendered(options: {
  plainRoute?: boolean;
  viewer?: object;
  flash?: object | null;
  status?: number;
  errors?: object | null;
  actionData?: object | null;
}) {
  return {
    isSpaMode: false,
    routeModules: {
      root: {},
      'routes/home/home': { handle: options.plainRoute === false ? undefined : { plainForVisitors: true } },
    },
    staticHandlerContext: {
      matches: [{ route: { id: 'root' } }, { route: { id: 'routes/home/home' } }],
      loaderData: { root: { viewer: options.viewer ?? visitor, flash: options.flash ?? null } },
      actionData: options.actionData ?? null,
      errors: options.errors ?? null,
      statusCode: options.status ?? 200,
    },
  } as unknown as EntryContext;
}

describe('which pages are plain (docs/decisions/027)', () => {
  it('is plain for a visitor on a page whose route says so, and only then', () => {
    expect(isPlainPage(rendered({}))).toBe(true);
    expect(isPlainPage(rendered({ plainRoute: false }))).toBe(false);
  });

  it('runs the app for a member, staff, a toast to show, a form answer or an error', () => {
    expect(isPlainPage(rendered({ viewer: member }))).toBe(false);
    expect(isPlainPage(rendered({ viewer: staff }))).toBe(false);
    expect(isPlainPage(rendered({ flash: { type: 'success', message: 'Signed out' } }))).toBe(false);
    expect(isPlainPage(rendered({ actionData: { 'routes/home/home': { ok: false } } }))).toBe(false);
    expect(isPlainPage(rendered({ status: 404 }))).toBe(false);
    expect(isPlainPage(rendered({ errors: { 'routes/home/home': new Error('down') } }))).toBe(false);
  });
});
