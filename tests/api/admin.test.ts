import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contactMessages, members, podcastEpisodes, uploadedFiles } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { multipartBody, PNG_BYTES, PDF_BYTES } from '../helpers/multipart.ts';

let t: TestApp;
let staffHeaders: Record<string, string>;
let staffEmail: string;
beforeAll(async () => {
  t = await createTestApp();
  const staff = await t.loginAsStaff();
  staffHeaders = { authorization: `Bearer ${staff.token}` };
  staffEmail = staff.email;
});
afterAll(() => t.close());

const ADMIN_CALLS: [string, string][] = [
  ['GET', '/api/admin/session'],
  ['GET', '/api/admin/podcast/list'],
  ['POST', '/api/admin/podcast/update'],
  ['GET', '/api/admin/content/homepage_hero'],
  ['POST', '/api/admin/content/homepage_hero'],
  ['GET', '/api/admin/files'],
  ['POST', '/api/admin/upload'],
  ['GET', '/api/admin/members'],
  ['GET', '/api/admin/members/export.csv'],
  ['POST', '/api/admin/members/00000000-0000-0000-0000-000000000000/tier'],
  ['GET', '/api/admin/messages'],
  ['POST', '/api/admin/messages/00000000-0000-0000-0000-000000000000/handled'],
  ['GET', '/api/admin/activity'],
];

describe('admin guard', () => {
  it.each(ADMIN_CALLS)('%s %s refuses a visitor (401) and a member (403)', async (method, url) => {
    const anonymous = await t.app.inject({ method: method as 'GET', url, payload: method === 'POST' ? {} : undefined });
    expect(anonymous.statusCode).toBe(401);
    const member = await t.loginAs('gold');
    const asMember = await t.app.inject({
      method: method as 'GET',
      url,
      headers: member.headers,
      payload: method === 'POST' ? {} : undefined,
    });
    expect(asMember.statusCode).toBe(403);
  });

  it('leaves the content counts public', async () => {
    expect((await t.app.inject('/api/admin/analytics/content')).statusCode).toBe(200);
  });
});

describe('POST /api/admin/login', () => {
  it('returns {token, email} and a staff cookie for the right password, and one message for any failure', async () => {
    const staff = await t.loginAsStaff({ email: `owner-${Date.now()}@example.com`, password: 'the right password' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: staff.email.toUpperCase(), password: 'the right password' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ token: expect.any(String), email: staff.email });
    expect(ok.cookies.find((cookie) => cookie.name === 'rp_staff')?.httpOnly).toBe(true);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: staff.email, password: 'wrong' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid email or password' });
    // A member's credentials never open a staff session.
    const member = await t.loginAs('gold');
    const asMember = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: member.email, password: member.password },
    });
    expect(asMember.statusCode).toBe(401);
  });

  it('allows a few tries per account, then makes each wait longer', async () => {
    const email = `target-${Date.now()}@example.com`;
    const codes = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      codes.push((await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password: 'guess' } })).statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5)).toEqual([429, 429]);
  });

  it('ends the staff session at logout', async () => {
    const staff = await t.loginAsStaff();
    const headers = { authorization: `Bearer ${staff.token}` };
    await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers });
    expect((await t.app.inject({ url: '/api/admin/files', headers })).statusCode).toBe(401);
  });
});

describe('podcast episodes', () => {
  it('replaces the whole list in one go, keeping audio_url equal to spotify_url, and logs the change', async () => {
    const list = (await t.app.inject({ url: '/api/admin/podcast/list', headers: staffHeaders })).json() as Record<string, string>[];
    expect(Object.keys(list[0]!).sort()).toEqual([
      'audio_url',
      'description',
      'duration',
      'episode',
      'id',
      'published_at',
      'season',
      'spotify_url',
      'thumbnail',
      'thumbnail_file_id',
      'title',
    ]);
    const [first, , ...rest] = list;
    const edited = { ...first, title: 'Edited title', spotify_url: 'https://open.spotify.com/episode/0123456789abcdefABCDEF' };
    const added = { id: String(Date.now()), title: 'A new one', spotify_url: '', audio_url: '', description: '', duration: '45:00' };
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/podcast/update',
      headers: staffHeaders,
      payload: [edited, ...rest, added],
    });
    expect(response.json()).toEqual({ success: true });
    const stored = await t.db.select().from(podcastEpisodes);
    expect(stored).toHaveLength(list.length);
    expect(stored.find((row) => row.id === list[1]!.id)).toBeUndefined();
    const editedRow = stored!.find((row) => row!.id === first!.id)!;
    expect(editedRow).toMatchObject({ title: 'Edited title', audioUrl: edited.spotify_url });
    // A new episode: the latest season, the next number, published today, with generated artwork.
    const latestSeason = Math.max(...list.map((episode) => Number(episode.season)));
    const lastNumber = Math.max(
      ...list.filter((episode) => Number(episode.season) === latestSeason).map((episode) => Number(episode.episode)),
    );
    const addedRow = stored.find((row) => row.id === added.id)!;
    expect(addedRow).toMatchObject({
      season: latestSeason,
      episode: lastNumber + 1,
      thumbnail: `/api/podcast/episodes/${added.id}/artwork.svg`,
    });
    expect(addedRow.publishedAt.toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    const artwork = await t.app.inject(addedRow.thumbnail);
    expect(artwork.headers['content-type']).toContain('image/svg+xml');
    expect(artwork.body).toContain('A new one');
    expect(artwork.body).toContain(`SEASON ${latestSeason} · EPISODE ${lastNumber + 1}`);
    const [audit] = await t.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ actorEmail: staffEmail, action: 'podcast.update' });
  });

  it('refuses a list that is not valid and changes nothing', async () => {
    const before = await t.db.select().from(podcastEpisodes);
    for (const payload of [
      { not: 'a list' },
      [
        { id: 'a', title: 'A' },
        { id: 'a', title: 'A' },
      ],
      [{ id: '../bad id', title: 'A' }],
      [{ id: 'x', title: 5 }],
      [{ id: 'x', title: '  ' }],
      [{ id: 'x', title: 'A', spotify_url: 'https://example.com/episode/1' }],
      [{ id: 'x', title: 'A', published_at: 'yesterday' }],
      [{ id: 'x', title: 'A', thumbnail_file_id: '00000000-0000-4000-8000-000000000000' }],
    ]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/admin/podcast/update', headers: staffHeaders, payload });
      expect(response.statusCode).toBe(400);
      expect(typeof response.json().detail).toBe('string');
    }
    expect(await t.db.select().from(podcastEpisodes)).toHaveLength(before.length);
  });
});

describe('content sections', () => {
  it('saves a whole section as plain text, serves it publicly, and logs old and new values', async () => {
    const hero = { headline: '<b>Close more deals</b>', subheadline: 'Sub', cta_text: 'Join now' };
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/content/homepage_hero', headers: staffHeaders, payload: hero });
    expect(response.json()).toEqual({ success: true });
    expect((await t.app.inject('/api/content/homepage_hero')).json()).toEqual({ data: hero });
    const [audit] = await t.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'content.update', target: 'homepage_hero', newValue: hero });
    expect((audit!.oldValue as Record<string, string>).headline).toBe('Transform Your Real Estate Career From Your Pocket');
  });

  it('refuses unknown sections, unknown fields and values that are not text', async () => {
    const post = (section: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/admin/content/${section}`, headers: staffHeaders, payload: payload as object });
    expect((await post('nope', {})).statusCode).toBe(404);
    const unknownField = await post('footer_text', { copyright: 'x', evil: 'y' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().detail).toBe('"evil" is not a field of footer_text. Its fields are: copyright, tagline.');
    expect((await post('footer_text', { copyright: 5 })).statusCode).toBe(400);
    expect((await post('footer_text', ['array'])).statusCode).toBe(400);
    expect((await post('footer_text', { tagline: 'x'.repeat(5001) })).statusCode).toBe(400);
  });
});

describe('uploads', () => {
  const upload = (file: { name: string; content: Buffer; type?: string } | null, folder = 'ebooks', visibility?: string) => {
    const body = multipartBody(visibility ? { folder, visibility } : { folder }, file);
    return t.app.inject({ method: 'POST', url: '/api/admin/upload', payload: body.payload, headers: { ...staffHeaders, ...body.headers } });
  };

  it('stores an allowed file under a server-chosen name and serves it with its true type and nosniff', async () => {
    // A public file (the staff member chose it) has its own address; members-only files are tested in protected-files.
    const response = await upload({ name: '../../Listing Checklist.pdf', content: PDF_BYTES }, 'ebooks', 'public');
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ filename: 'Listing Checklist.pdf', folder: 'ebooks' });
    expect(body.url).toMatch(/^\/files\/ebooks\/[0-9a-f]{32}\.pdf$/);
    const served = await t.app.inject(body.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const files = (await t.app.inject({ url: '/api/admin/files', headers: staffHeaders })).json();
    expect(files[0]).toEqual({
      id: body.id,
      filename: 'Listing Checklist.pdf',
      folder: 'ebooks',
      url: body.url,
      visibility: 'public',
      content_type: 'application/pdf',
    });
  });

  it('serves text files as attachments', async () => {
    const response = await upload({ name: 'leads.csv', content: Buffer.from('name,email\nAna,ana@example.com\n') }, 'templates');
    expect(response.statusCode).toBe(201);
    const served = await t.app.inject({ url: response.json().url, headers: staffHeaders });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it.each([
    [{ name: 'setup.exe', content: Buffer.from('MZ\u0090\u0000binary') }, 'Files of this type are not accepted.'],
    [
      { name: 'page.pdf', content: Buffer.from('<html><script>alert(1)</script></html>') },
      "The file's content does not match its .pdf extension.",
    ],
    [{ name: 'photo.png', content: PDF_BYTES }, "The file's content does not match its .png extension."],
    [{ name: 'notes.txt', content: PNG_BYTES }, "The file's content does not match its .txt extension."],
    [{ name: 'page.html', content: Buffer.from('<html></html>') }, 'Files of this type are not accepted.'],
    [{ name: 'empty.pdf', content: Buffer.alloc(0) }, 'The file is empty.'],
  ])('refuses %s', async (file, detail) => {
    const before = await t.db.select().from(uploadedFiles);
    const response = await upload(file);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(new RegExp(`^${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(await t.db.select().from(uploadedFiles)).toHaveLength(before.length);
  });

  it('refuses an unknown folder and a missing file', async () => {
    expect((await upload({ name: 'a.pdf', content: PDF_BYTES }, '../etc')).statusCode).toBe(400);
    expect((await upload(null)).json().detail).toBe('Choose a file to upload.');
  });

  it('refuses a file over the size limit with 413', async () => {
    const small = await createTestApp({ seed: false, env: { UPLOAD_MAX_MB: '0.001' } });
    try {
      const staff = await small.loginAsStaff();
      const big = Buffer.concat([PDF_BYTES, Buffer.alloc(4096, 32)]);
      const body = multipartBody({ folder: 'ebooks' }, { name: 'big.pdf', content: big });
      const response = await small.app.inject({
        method: 'POST',
        url: '/api/admin/upload',
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${staff.token}` },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().detail).toMatch(/too large/);
    } finally {
      await small.close();
    }
  });
});

describe('members, messages and activity', () => {
  it('finds members, changes a tier (which changes access) and exports CSV', async () => {
    const member = await t.loginAs('free', { name: 'Tier Change Tester' });
    const found = (await t.app.inject({ url: '/api/admin/members?search=tier change', headers: staffHeaders })).json();
    expect(found).toEqual([expect.objectContaining({ id: member.memberId, membership_tier: 'free', name: 'Tier Change Tester' })]);
    const lessonsBefore = (await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers: member.headers })).json();
    expect(lessonsBefore.every((lesson: { video_url: string | null }) => lesson.video_url === null)).toBe(true);

    const change = await t.app.inject({
      method: 'POST',
      url: `/api/admin/members/${member.memberId}/tier`,
      headers: staffHeaders,
      payload: { membership_tier: 'gold' },
    });
    expect(change.json()).toMatchObject({ success: true, membership_tier: 'gold' });
    const [row] = await t.db.select().from(members).where(eq(members.id, member.memberId));
    expect(row!.membershipTier).toBe('gold');
    const lessonsAfter = (await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers: member.headers })).json();
    expect(lessonsAfter.some((lesson: { video_url: string | null }) => lesson.video_url !== null)).toBe(true);

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/members/${member.memberId}/tier`,
          headers: staffHeaders,
          payload: { membership_tier: 'platinum' },
        })
      ).statusCode,
    ).toBe(400);
    const csv = await t.app.inject({ url: '/api/admin/members/export.csv?search=tier change', headers: staffHeaders });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('"Tier Change Tester"');
    expect(csv.body.split('\r\n')[0]).toBe('Name,Email,Tier,Joined');

    const activity = (await t.app.inject({ url: '/api/admin/activity', headers: staffHeaders })).json();
    // The export is in the log too, newest first.
    expect(activity[0]).toMatchObject({ actor_email: staffEmail, action: 'member.export', target: 'members matching "tier change"' });
    expect(activity[1]).toMatchObject({
      actor_email: staffEmail,
      action: 'member.tier',
      target: member.email,
      old_value: 'free',
      new_value: 'gold',
    });
  });

  it('lists contact messages newest first and marks one handled', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'A', email: 'a@example.com', subject: 'First', message: 'One' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'B', email: 'b@example.com', subject: 'Second', message: 'Two' },
    });
    const messages = (await t.app.inject({ url: '/api/admin/messages', headers: staffHeaders })).json();
    expect(messages[0]).toMatchObject({ subject: 'Second', handled: false });
    const handled = await t.app.inject({ method: 'POST', url: `/api/admin/messages/${messages[0].id}/handled`, headers: staffHeaders });
    expect(handled.json()).toEqual({ success: true });
    const [row] = await t.db.select().from(contactMessages).where(eq(contactMessages.id, messages[0].id));
    expect(row!.handled).toBe(true);
    // An id that is not an id at all is a bad request; a well-formed id that matches nothing is not found.
    const malformed = await t.app.inject({ method: 'POST', url: '/api/admin/messages/not-a-uuid/handled', headers: staffHeaders });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ detail: 'Message id must be a valid id' });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/admin/messages/00000000-0000-4000-8000-000000000000/handled',
      headers: staffHeaders,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
