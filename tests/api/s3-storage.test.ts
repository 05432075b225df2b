import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createStorage } from '../../server/files/create-storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';

// A real S3-compatible server on loopback, not a mocked client.
let s3: S3rver;
let endpoint: string;
let s3Dir: string;
let t: TestApp;
const BUCKET = 'realtypocket-uploads';

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-s3-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await s3.run()) as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
  const env = {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: '1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_REGION: 'us-east-1',
  };
  t = await createTestApp({ seed: false, env, storage: () => createStorage(loadConfig(env)) });
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

describe('S3-compatible storage', () => {
  const upload = async (fields: Record<string, string>) => {
    const staff = await t.loginAsStaff();
    const body = multipartBody(fields, { name: 'Buyer Checklist.pdf', content: PDF_BYTES });
    return t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${staff.token}` },
    });
  };

  it('uploads a public file into the private bucket and hands it to anyone through a signed link', async () => {
    const response = await upload({ folder: 'course-materials', visibility: 'public' });
    expect(response.statusCode).toBe(201);
    const { url, filename } = response.json();
    expect(filename).toBe('Buyer Checklist.pdf');
    expect(url).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const redirect = await t.app.inject(url);
    expect(redirect.statusCode).toBe(302);
    const signed = new URL(String(redirect.headers.location));
    expect(signed.pathname).toMatch(new RegExp(`^/${BUCKET}/course-materials/[0-9a-f]{32}\\.pdf$`));
    const fetched = await fetch(signed);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  });

  it('sends an entitled member of a members-only file to a signed link that expires within minutes', async () => {
    const response = await upload({ folder: 'course-materials', visibility: 'silver' });
    const { url } = response.json();
    expect(url).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    expect((await t.app.inject(url)).statusCode).toBe(401);
    const bronze = await t.loginAs('bronze');
    expect((await t.app.inject({ url, headers: bronze.headers })).statusCode).toBe(403);
    const silver = await t.loginAs('silver');
    const redirect = await t.app.inject({ url, headers: silver.headers });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['cache-control']).toBe('private, no-store');
    const signed = new URL(String(redirect.headers.location));
    expect(signed.origin).toBe(endpoint);
    expect(Number(signed.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(600);
    const fetched = await fetch(signed);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  });
});
