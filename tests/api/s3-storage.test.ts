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
  it('uploads through the API into the bucket, and the returned URL serves the file', async () => {
    const staff = await t.loginAsStaff();
    const body = multipartBody({ folder: 'course-materials' }, { name: 'Buyer Checklist.pdf', content: PDF_BYTES });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${staff.token}` },
    });
    expect(response.statusCode).toBe(201);
    const { url, filename } = response.json();
    expect(filename).toBe('Buyer Checklist.pdf');
    expect(url).toMatch(new RegExp(`^${endpoint}/${BUCKET}/course-materials/[0-9a-f]{32}\\.pdf$`));
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  });
});
