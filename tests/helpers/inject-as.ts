import { expect } from 'vitest';
import { multipartBody } from './multipart.ts';
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

/**
 * Uploads a file to the library as staff (these headers), in a folder and, if given, at a
 * visibility; answers its id (and fails the test when refused).
 */
export async function uploadAs(
  t: TestApp,
  staff: ViewerHeaders,
  file: { folder: string; name: string; content: Buffer; visibility?: string },
): Promise<string> {
  const body = multipartBody({ folder: file.folder, ...(file.visibility ? { visibility: file.visibility } : {}) }, file);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}
