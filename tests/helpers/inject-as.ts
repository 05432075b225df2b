import type { TestApp } from './test-app.ts';

/** A viewer's headers: a staff or member bearer token, or none for a visitor. */
export type ViewerHeaders = { authorization: string } | Record<string, never>;

/**
 * A JSON request to the test app as a viewer; the app is read at each call, as test files create it
 * in `beforeAll`.
 */
export const injectAs =
  (app: () => TestApp) =>
  (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: ViewerHeaders = {}, payload?: object) =>
    app().app.inject({ method, url, headers, payload });
