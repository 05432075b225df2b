import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import { DAILY_TIP_IS_TEXT, type StaffResource } from '../../common/resources.contract.ts';
import { auditLog } from '../../db/schema.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Staff write the resources library; a resource's file reaches only members whose tier reaches it.
let t: TestApp;
let staff: { authorization: string };
let silver: MemberLogin;
let bronze: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  silver = await t.loginAs('silver');
  bronze = await t.loginAs('bronze');
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const GUIDE = {
  title: 'Listing Photo Guide',
  description: 'Shot lists and lighting for listing photos that sell.',
  resource_type: 'ebook',
  tier_required: 'silver',
};

async function uploadPdf(): Promise<string> {
  const body = multipartBody({ folder: 'ebooks', visibility: 'silver' }, { name: 'photo-guide.pdf', content: PDF_BYTES });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

describe('resources authoring', () => {
  it('refuses visitors and members on the staff routes', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/admin/resources'],
      ['POST', '/api/admin/resources', GUIDE],
      ['PUT', '/api/admin/resources/anything', GUIDE],
      ['DELETE', '/api/admin/resources/anything'],
    ] as const) {
      expect((await request(method, url, {}, payload)).statusCode).toBe(401);
      expect((await request(method, url, silver.headers, payload)).statusCode).toBe(403);
    }
  });

  it('adds a resource with a protected file that only entitled members download, edits it and removes it', async () => {
    const fileId = await uploadPdf();
    const created = await request('POST', '/api/admin/resources', staff, { ...GUIDE, file_id: fileId });
    expect(created.statusCode, created.body).toBe(201);
    const resource = created.json();
    expect(resource).toMatchObject({ id: 'listing-photo-guide', file_id: fileId, file_name: 'photo-guide.pdf', has_download: true });

    const find = async (headers: Headers) =>
      ((await request('GET', '/api/resources', headers)).json() as { id: string; download_url: string | null }[]).find(
        (each) => each.id === resource.id,
      );
    expect((await find({}))?.download_url).toBeNull();
    expect((await find(bronze.headers))?.download_url).toBeNull();
    const link = (await find(silver.headers))!.download_url!;
    expect(link).toBe(`/api/resources/${resource.id}/download`);
    expect((await request('GET', link, silver.headers)).statusCode).toBe(200);
    expect((await request('GET', link, bronze.headers)).statusCode).toBe(403);
    expect((await request('GET', link)).statusCode).toBe(401);

    const edited = await request('PUT', `/api/admin/resources/${resource.id}`, staff, {
      ...GUIDE,
      tier_required: 'bronze',
      file_id: fileId,
    });
    expect(edited.json().tier_required).toBe('bronze');
    // The file keeps its own rule (Silver): no link, and no download, until staff open the file to Bronze too.
    expect((await find(bronze.headers))?.download_url).toBeNull();
    expect((await request('GET', link, bronze.headers)).statusCode).toBe(403);
    expect((await request('POST', `/api/admin/files/${fileId}/visibility`, staff, { visibility: 'bronze' })).statusCode).toBe(200);
    expect((await find(bronze.headers))?.download_url).toBe(link);
    expect((await request('GET', link, bronze.headers)).statusCode).toBe(200);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'resource.update')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry?.target).toBe(resource.id);

    expect((await request('DELETE', `/api/admin/resources/${resource.id}`, staff)).statusCode).toBe(200);
    expect(await find(silver.headers)).toBeUndefined();
    expect((await request('GET', link, silver.headers)).statusCode).toBe(404);
    expect((await request('DELETE', `/api/admin/resources/${resource.id}`, staff)).statusCode).toBe(404);
  });

  it('keeps daily tips as text and refuses bad fields with a message', async () => {
    const fileId = await uploadPdf();
    const tip = await request('POST', '/api/admin/resources', staff, {
      ...GUIDE,
      title: 'Call before nine',
      resource_type: 'daily_tip',
      tier_required: 'bronze',
    });
    expect(tip.statusCode).toBe(201);
    expect(tip.json()).toMatchObject({ resource_type: 'daily_tip', has_download: false });
    const cases: [object, string][] = [
      [{ ...GUIDE, resource_type: 'daily_tip', file_id: fileId }, DAILY_TIP_IS_TEXT],
      [{ ...GUIDE, resource_type: 'podcast' }, 'Type must be daily_tip, ebook, workbook, article or market_report'],
      [{ ...GUIDE, tier_required: 'vip' }, 'Tier must be free, bronze, silver or gold'],
      [{ ...GUIDE, title: '' }, 'Title is required'],
      [{ ...GUIDE, download_url: 'http://insecure.example.com/guide.pdf' }, 'Link must start with https://'],
      [{ ...GUIDE, file_id: fileId, download_url: 'https://example.com/guide.pdf' }, 'Choose a file or a link, not both'],
    ];
    for (const [payload, message] of cases) {
      const refused = await request('POST', '/api/admin/resources', staff, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toContain(message);
    }
    const missing = await request('POST', '/api/admin/resources', staff, { ...GUIDE, file_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toBe('The file is not in the file library.');
  });
});

describe("the staff's resource list", () => {
  /** Every page from the first, following `Link: <...>; rel="next"`, as the API answers them. */
  async function everyPage(): Promise<{ resources: StaffResource[]; next: string | null }[]> {
    const pages: { resources: StaffResource[]; next: string | null }[] = [];
    let url: string | null = '/api/admin/resources';
    while (url && pages.length < 20) {
      const response = await request('GET', url, staff);
      expect(response.statusCode, response.body).toBe(200);
      const link = response.headers.link as string | undefined;
      const next = link ? /^<(\/api\/admin\/resources\?before=[\w-]+)>; rel="next"$/.exec(link)?.[1] : undefined;
      if (link) expect(next, link).toBeDefined();
      pages.push({ resources: response.json(), next: next ?? null });
      url = next ?? null;
    }
    return pages;
  }

  it("is a page at a time in the library's order, every resource once, with its file's name", async () => {
    // Enough for three pages: some on one position with the same title (the id breaks the tie), some
    // with titles as long as allowed in letters of several bytes (the page link stays short).
    const fileId = await uploadPdf();
    await t.db.execute(sql`
      insert into resources (id, title, description, resource_type, tier_required, file_id, position)
      select 'paged-resource-' || lpad(g::text, 3, '0'),
             case when g % 4 = 0 then 'Same Title' when g % 4 = 1 then repeat('Ü', 196) || lpad(g::text, 4, '0') else 'Paged ' || (200 - g) end,
             'A resource of the paging test.', 'ebook', 'silver', case when g % 5 = 0 then ${fileId}::uuid end,
             case when g % 3 = 0 then 1000 else 500 end
      from generate_series(1, ${PAGE_SIZE.staffList * 2 + 5}) as g`);
    const expected = (
      (await t.db.execute(sql`select id from resources order by position, title, id`)) as unknown as { rows: { id: string }[] }
    ).rows.map((row) => row.id);

    const pages = await everyPage();
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages.slice(0, -1)) expect(page.resources).toHaveLength(PAGE_SIZE.staffList);
    expect(pages.at(-1)!.next).toBeNull();
    const shown = pages.flatMap((page) => page.resources.map((resource) => resource.id));
    expect(shown).toEqual(expected);
    expect(new Set(shown).size).toBe(shown.length);
    const withFile = pages.flatMap((page) => page.resources).filter((resource) => resource.id.startsWith('paged-') && resource.file_id);
    expect(withFile.length).toBeGreaterThan(0);
    expect(withFile.every((resource) => resource.file_name === 'photo-guide.pdf')).toBe(true);
  });

  it('refuses a broken page link, and one whose resource is gone, with a 400 that says to start again', async () => {
    for (const cursor of ['abc', Buffer.from('["x"]').toString('base64url'), Buffer.from('[-1]').toString('base64url')]) {
      const refused = await request('GET', `/api/admin/resources?before=${cursor}`, staff);
      expect(refused.statusCode, cursor).toBe(400);
      expect(refused.json().detail).toBe(INVALID_CURSOR);
    }
    const [first] = await everyPage();
    expect(first!.next).not.toBeNull();
    const removed = await request('DELETE', `/api/admin/resources/${first!.resources.at(-1)!.id}`, staff);
    expect(removed.statusCode, removed.body).toBe(200);
    const stale = await request('GET', first!.next!, staff);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().detail).toBe(INVALID_CURSOR);
  });
});
