import { count, desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_DEFAULTS } from '../../common/content-sections.ts';
import { contactMessages } from '../../db/schema.ts';
import { createContentRepository } from '../../server/content/content.repository.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const valid = {
  name: 'Pat Broker',
  email: 'pat@example.com',
  subject: 'Team pricing',
  message: 'We have 8 agents. What would team pricing look like?',
};
const send = (payload: unknown, ip?: string) =>
  t.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress: ip ?? '10.0.0.1' });

describe('POST /api/contact', () => {
  it('stores the message and answers success', async () => {
    const response = await send(valid);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ success: true });
    const [stored] = await t.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(1);
    expect(stored).toMatchObject({ ...valid, handled: false });
  });

  it.each([
    [{ ...valid, name: '' }, 'Your name is required'],
    [{ ...valid, email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ ...valid, subject: '   ' }, 'Subject is required'],
    [{ ...valid, message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
    [{ name: 'Only a name' }, 'Email address is required'],
  ])('refuses %j with a 400 that says what is wrong, storing nothing', async (payload, detail) => {
    const before = (await t.db.select({ value: count() }).from(contactMessages))[0]!.value;
    const response = await send(payload, '10.0.0.2');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
    const after = (await t.db.select({ value: count() }).from(contactMessages))[0]!.value;
    expect(after).toBe(before);
  });

  it('keeps markup as plain text', async () => {
    await send({ ...valid, message: '<script>alert(1)</script>' }, '10.0.0.3');
    const [stored] = await t.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(1);
    expect(stored!.message).toBe('<script>alert(1)</script>');
  });

  it('limits messages per client address', async () => {
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await send(valid, '10.0.0.9')).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('GET /api/content/:section', () => {
  it('returns the stored section object', async () => {
    const response = await t.app.inject('/api/content/homepage_hero');
    expect(response.json()).toEqual({ data: CONTENT_DEFAULTS.homepage_hero });
  });

  it('returns a changed section as stored', async () => {
    await createContentRepository(t.db).save('contact_info', { ...CONTENT_DEFAULTS.contact_info, phone: '(737) 555-0199' }, 'test');
    expect((await t.app.inject('/api/content/contact_info')).json().data.phone).toBe('(737) 555-0199');
  });

  it('answers 404 for an unknown section', async () => {
    const response = await t.app.inject('/api/content/not_a_section');
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('There is no content section called "not_a_section".');
  });
});

describe('an empty database', () => {
  it('answers a never-saved section with an empty object', async () => {
    const empty = await createTestApp({ seed: false });
    try {
      expect((await empty.app.inject('/api/content/podcast_labels')).json()).toEqual({ data: {} });
    } finally {
      await empty.close();
    }
  });
});
