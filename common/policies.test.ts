import { describe, expect, it } from 'vitest';
import { GOLD_SPACE_ONLY, SUSPENDED, UPGRADE_TO_PARTICIPATE } from './community.contract.ts';
import { ServiceError } from './errors.ts';
import {
  editRefusal,
  isAuthorOf,
  leavesNoOwner,
  mayDownloadResource,
  mayEditPageTexts,
  mayEnterStaffArea,
  mayLike,
  mayModerate,
  mayReadBroadcast,
  mayOpenAttachment,
  mayOpenCourse,
  mayOpenFile,
  mayOpenLessons,
  mayReadGoldLounge,
  mayReadPostsIn,
  mayReadPreviewInFull,
  maySaveOffline,
  mayStudyCourse,
  mayWatchLesson,
  offersUpgrade,
  OWNER_ONLY,
  postingRefusal,
  requireMember,
  requireStaff,
  requireStaffArea,
  showsTierBadge,
  SIGN_IN_TO_TAKE_PART,
  STAFF_AREAS,
  TWO_FACTOR_SETUP_FIRST,
} from './policies.ts';
import { TIERS, type Tier } from './tiers.ts';
import { publicViewer, type Viewer } from './viewer.ts';

// Every policy over every kind of viewer. A row lists the kinds a policy lets through (or, for a
// refusal, the reason each kind gets), so a changed rule shows here as a changed row.

const KINDS = ['visitor', 'free', 'bronze', 'silver', 'gold', 'suspended', 'downgraded', 'editor', 'owner'] as const;
type Kind = (typeof KINDS)[number];

const client = { address: '10.0.0.1', userAgent: 'policy test' };
function member(tier: Tier, suspended = false): Viewer {
  return {
    member: {
      id: `member-${tier}-${suspended}`,
      name: 'Sam',
      email: 'sam@example.com',
      membershipTier: tier,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      emailVerifiedAt: null,
      communitySuspendedAt: suspended ? new Date('2026-06-01T00:00:00Z') : null,
      timeZone: null,
      sessionId: 'session',
    },
    staff: null,
    client,
  };
}
const staff = (role: 'editor' | 'owner', twoFactor = { enabled: false, required: false }): Viewer => ({
  member: null,
  staff: {
    id: `staff-${role}`,
    email: `${role}@example.com`,
    role,
    twoFactorEnabled: twoFactor.enabled,
    twoFactorRequired: twoFactor.required,
    sessionId: 'session',
  },
  client,
});

// 'suspended' is a Gold member suspended from posting; 'downgraded' a member who was Gold and is
// Silver now: they wrote in the Gold Lounge and took an archived Gold course while they were Gold.
const VIEWERS: Record<Kind, Viewer> = {
  visitor: { member: null, staff: null, client },
  free: member('free'),
  bronze: member('bronze'),
  silver: member('silver'),
  gold: member('gold'),
  suspended: member('gold', true),
  downgraded: member('silver'),
  editor: staff('editor'),
  owner: staff('owner'),
};
const MEMBERS: Kind[] = ['free', 'bronze', 'silver', 'gold', 'suspended', 'downgraded'];
const BRONZE_UP: Kind[] = ['bronze', 'silver', 'gold', 'suspended', 'downgraded'];
const GOLD: Kind[] = ['gold', 'suspended'];
const STAFF: Kind[] = ['editor', 'owner'];

const ownPost = (kind: Kind) => ({ authorId: VIEWERS[kind].member?.id ?? 'someone else' });

/** Each policy, asked of one viewer; the kinds it lets through. */
const ALLOWS: [string, (viewer: Viewer, kind: Kind) => boolean | Promise<boolean>, Kind[]][] = [
  ['open a published course', (viewer) => mayOpenCourse(viewer, { status: 'published' }, async () => false), [...KINDS]],
  ['open a draft course', (viewer) => mayOpenCourse(viewer, { status: 'draft' }, async () => true), STAFF],
  [
    'open an archived course (only the downgraded member took it)',
    (viewer, kind) => mayOpenCourse(viewer, { status: 'archived' }, async () => kind === 'downgraded'),
    ['downgraded', ...STAFF],
  ],
  ['study a Silver course', (viewer) => mayStudyCourse(viewer, { tier: 'silver' }), ['silver', 'gold', 'suspended', 'downgraded']],
  ['study a Gold course', (viewer) => mayStudyCourse(viewer, { tier: 'gold' }), GOLD],
  ['open the lessons of a Gold course', (viewer) => mayOpenLessons(viewer, { tier: 'gold' }), [...GOLD, ...STAFF]],
  ["watch a Gold course's free preview", (viewer) => mayWatchLesson(viewer, { courseTier: 'gold', freePreview: true }), [...KINDS]],
  [
    "watch a Bronze course's lesson",
    (viewer) => mayWatchLesson(viewer, { courseTier: 'bronze', freePreview: false }),
    [...BRONZE_UP, ...STAFF],
  ],
  ['open a public file', (viewer) => mayOpenFile(viewer, { accessTier: null }), [...KINDS]],
  [
    'open a Silver file',
    (viewer) => mayOpenFile(viewer, { accessTier: 'silver' }),
    ['silver', 'gold', 'suspended', 'downgraded', ...STAFF],
  ],
  [
    "open a Gold attachment of a Bronze course's lesson",
    (viewer) => mayOpenAttachment(viewer, { tier: 'bronze' }, { accessTier: 'gold' }),
    [...GOLD, ...STAFF],
  ],
  ["download a Bronze resource's file", (viewer) => mayDownloadResource(viewer, { tierRequired: 'bronze' }), [...BRONZE_UP, ...STAFF]],
  ['save downloads for offline use', (viewer) => maySaveOffline(viewer), BRONZE_UP],
  ['read the first preview post in full', (viewer) => mayReadPreviewInFull(viewer, { firstPage: true, index: 0 }), [...KINDS]],
  ['read the third preview post in full', (viewer) => mayReadPreviewInFull(viewer, { firstPage: true, index: 2 }), MEMBERS],
  ['read a later page of the preview in full', (viewer) => mayReadPreviewInFull(viewer, { firstPage: false, index: 0 }), MEMBERS],
  ['read the Gold Lounge', (viewer) => mayReadGoldLounge(viewer), GOLD],
  ['read the posts of the Gold Lounge', (viewer) => mayReadPostsIn(viewer, 'gold'), GOLD],
  ['read the posts of the general space', (viewer) => mayReadPostsIn(viewer, 'general'), [...KINDS]],
  ['like in the general space', (viewer) => mayLike(viewer, 'general'), BRONZE_UP],
  ['like in the Gold Lounge', (viewer) => mayLike(viewer, 'gold'), GOLD],
  ['change their own post', (viewer, kind) => isAuthorOf(viewer, ownPost(kind)), MEMBERS],
  ["change someone else's post", (viewer) => isAuthorOf(viewer, { authorId: 'someone else' }), []],
  ['moderate the community', (viewer) => mayModerate(viewer), STAFF],
  [
    'read a broadcast sent to Bronze and Gold',
    (viewer) => mayReadBroadcast(viewer, { audience: ['bronze', 'gold'] }),
    ['bronze', 'gold', 'suspended'],
  ],
  ["edit the pages' texts", (viewer) => mayEditPageTexts(viewer), STAFF],
  ...STAFF_AREAS.map((area): [string, (viewer: Viewer) => boolean, Kind[]] => [
    `enter the ${area} staff area`,
    (viewer) => mayEnterStaffArea(viewer, area),
    ['members', 'billing', 'staff'].includes(area) ? ['owner'] : STAFF,
  ]),
];

describe('policies over every kind of viewer', () => {
  it.each(ALLOWS)('who may %s', async (_name, policy, allowed) => {
    const answers: Kind[] = [];
    for (const kind of KINDS) if (await policy(VIEWERS[kind], kind)) answers.push(kind);
    expect(answers).toEqual(KINDS.filter((kind) => allowed.includes(kind)));
  });

  it('says why each kind may not post, in the general space and in the Gold Lounge', () => {
    const reasons = (space: 'general' | 'gold') => KINDS.map((kind) => postingRefusal(VIEWERS[kind], space));
    const free = [SIGN_IN_TO_TAKE_PART, UPGRADE_TO_PARTICIPATE];
    expect(reasons('general')).toEqual([...free, null, null, null, SUSPENDED, null, SIGN_IN_TO_TAKE_PART, SIGN_IN_TO_TAKE_PART]);
    expect(reasons('gold')).toEqual([
      ...free,
      GOLD_SPACE_ONLY,
      GOLD_SPACE_ONLY,
      null,
      SUSPENDED,
      GOLD_SPACE_ONLY,
      SIGN_IN_TO_TAKE_PART,
      SIGN_IN_TO_TAKE_PART,
    ]);
  });

  it('lets a member edit their own Gold Lounge post only while they may still post there', () => {
    const mine = KINDS.map((kind) => editRefusal(VIEWERS[kind], ownPost(kind), 'gold', 'posts'));
    const notTheirs = 'You can only change your own posts.';
    expect(mine).toEqual([
      notTheirs,
      UPGRADE_TO_PARTICIPATE,
      GOLD_SPACE_ONLY,
      GOLD_SPACE_ONLY,
      null,
      SUSPENDED,
      GOLD_SPACE_ONLY,
      notTheirs,
      notTheirs,
    ]);
    expect(editRefusal(VIEWERS.gold, { authorId: 'someone else' }, 'gold', 'replies')).toBe('You can only change your own replies.');
  });

  it('answers the same for the browser as for the server, so pages show what the server allows', () => {
    for (const kind of KINDS) {
      const server = VIEWERS[kind];
      const browser = publicViewer(server);
      for (const tier of TIERS) expect(mayStudyCourse(browser, { tier })).toBe(mayStudyCourse(server, { tier }));
      expect(maySaveOffline(browser)).toBe(maySaveOffline(server));
      expect(mayEditPageTexts(browser)).toBe(mayEditPageTexts(server));
      for (const area of STAFF_AREAS) expect(mayEnterStaffArea(browser, area)).toBe(mayEnterStaffArea(server, area));
    }
  });
});

describe('signing in and staff roles', () => {
  /** The status and message a check ends in, or null when it passes. */
  function refusalOf(check: () => unknown) {
    try {
      check();
      return null;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { status: error.status, message: error.message };
    }
  }

  it('asks a visitor to sign in, refuses a member, and keeps the owners’ areas from editors', () => {
    expect(refusalOf(() => requireStaffArea(VIEWERS.visitor, 'content'))?.status).toBe(401);
    expect(refusalOf(() => requireStaffArea(VIEWERS.gold, 'content'))?.status).toBe(403);
    expect(refusalOf(() => requireStaffArea(VIEWERS.editor, 'content'))).toBeNull();
    expect(refusalOf(() => requireStaffArea(VIEWERS.editor, 'members'))).toEqual({ status: 403, message: OWNER_ONLY });
    expect(refusalOf(() => requireStaffArea(VIEWERS.owner, 'billing'))).toBeNull();
    expect(refusalOf(() => requireMember(VIEWERS.owner))?.status).toBe(401);
    expect(refusalOf(() => requireMember(VIEWERS.free))).toBeNull();
  });

  it('lets staff do nothing but set up two-factor sign-in once owners require it', () => {
    const pending = staff('owner', { enabled: false, required: true });
    expect(refusalOf(() => requireStaff(pending))).toEqual({ status: 403, message: TWO_FACTOR_SETUP_FIRST });
    expect(refusalOf(() => requireStaff(staff('editor', { enabled: true, required: true })))).toBeNull();
  });

  it('never leaves the site without an owner', () => {
    expect(leavesNoOwner({ from: 'owner', to: 'editor' }, 1)).toBe(true);
    expect(leavesNoOwner({ from: 'owner', to: null }, 1)).toBe(true);
    expect(leavesNoOwner({ from: 'owner', to: 'editor' }, 2)).toBe(false);
    expect(leavesNoOwner({ from: 'editor', to: null }, 1)).toBe(false);
    expect(leavesNoOwner({ from: 'owner', to: 'owner' }, 1)).toBe(false);
  });
});

describe('what pages show of a tier', () => {
  it('badges Silver and Gold authors and offers the free plan an upgrade', () => {
    expect(TIERS.filter((tier) => showsTierBadge(tier))).toEqual(['silver', 'gold']);
    expect(showsTierBadge(null)).toBe(false);
    expect(TIERS.filter((tier) => offersUpgrade(tier))).toEqual(['free']);
  });
});
