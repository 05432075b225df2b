import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import { TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import { auditLog } from '../../db/schema.ts';
import { refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';
import { INVALID_CURSOR } from '../lists/keyset.ts';

// The activity log as staff read it: owners every entry, editors the content changes only.

const t = serviceTestApp();
beforeAll(async () => {
  // One entry of each kind, oldest first: what editors change, then what only owners deal with.
  await t.db.insert(auditLog).values(
    [
      ['content.update', 'homepage_hero'],
      ['course.publish', 'first-90-days'],
      ['lesson.create', 'first-90-days'],
      ['file.upload', 'handout.pdf'],
      ['podcast.update', 'ep-1'],
      ['resource.create', 'scripts'],
      ['member.tier', 'pat@example.com'],
      ['staff.invite', 'new@example.com'],
      ['community.suspend', 'sam@example.com'],
      ['message.handled', 'Team pricing'],
      ['courses-export.run', 'all'],
    ].map(([action, target]) => ({
      actorEmail: 'owner@example.com',
      action: action!,
      target: target!,
      oldValue: null,
      newValue: { n: 1 },
    })),
  );
});

const audit = () => t.app.services.audit;
/** The content changes among the entries made above, newest first: all of them that editors read. */
const CONTENT_CHANGES = ['resource.create', 'podcast.update', 'file.upload', 'lesson.create', 'course.publish', 'content.update'];

describe('who reads the activity log', () => {
  it('refuses visitors (401), members of any tier (403), and staff who have yet to set up required two-factor sign-in', async () => {
    expect((await refusal(audit().list(t.asVisitor()))).status).toBe(401);
    for (const tier of ['free', 'gold'] as const) expect((await refusal(audit().list(await t.asMember(tier)))).status).toBe(403);
    const owner = await t.asStaff('owner');
    const unprotected = { ...owner, staff: { ...owner.staff, twoFactorRequired: true, twoFactorEnabled: false } };
    expect(await refusal(audit().list(unprotected))).toEqual({ status: 403, message: TWO_FACTOR_SETUP_FIRST });
  });

  it('shows owners every entry, newest first, as staff read it', async () => {
    const { items, next_cursor } = await audit().list(await t.asStaff('owner'));
    expect(items.map((entry) => entry.action)).toEqual([
      'courses-export.run',
      'message.handled',
      'community.suspend',
      'staff.invite',
      'member.tier',
      ...CONTENT_CHANGES,
    ]);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      actor_email: 'owner@example.com',
      action: 'courses-export.run',
      target: 'all',
      old_value: null,
      new_value: { n: 1 },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(next_cursor).toBeNull();
  });

  it("shows editors the content changes only: no member's email, no staff, community, message or look-alike entry", async () => {
    const { items } = await audit().list(await t.asStaff('editor'));
    expect(items.map((entry) => entry.action)).toEqual(CONTENT_CHANGES);
  });
});

describe('paging', () => {
  it('reads a page at a time, each page after the last one shown, for editors within their scope too', async () => {
    // Half of them content changes: editors too read more than one page.
    await t.db.insert(auditLog).values(
      Array.from({ length: 2 * PAGE_SIZE.staffList }, (_, index) => ({
        actorEmail: 'editor@example.com',
        action: index % 2 === 0 ? 'course.update' : 'member.tier',
        target: `paged-${index}`,
        oldValue: null,
        newValue: null,
      })),
    );
    for (const [role, total] of [
      ['owner', 11 + 2 * PAGE_SIZE.staffList],
      ['editor', 6 + PAGE_SIZE.staffList],
    ] as const) {
      const staff = await t.asStaff(role);
      const ids: number[] = [];
      let before: string | undefined;
      do {
        const page = await audit().list(staff, { before });
        expect(page.items.length, role).toBeLessThanOrEqual(PAGE_SIZE.staffList);
        ids.push(...page.items.map((entry) => entry.id));
        before = page.next_cursor ?? undefined;
      } while (before);
      expect(ids, role).toHaveLength(total);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => b - a));
    }
  });

  it('refuses a page link it did not make with a 400', async () => {
    const owner = await t.asStaff('owner');
    const madeUp = Buffer.from(JSON.stringify([-1])).toString('base64url');
    for (const before of ['not-a-cursor', madeUp])
      expect(await refusal(audit().list(owner, { before }))).toEqual({ status: 400, message: INVALID_CURSOR });
  });
});
