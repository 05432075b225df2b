import { describe, expect, it } from 'vitest';
import { GOLD_SPACE_ONLY, SUSPENDED, UPGRADE_TO_PARTICIPATE } from './community.contract.ts';
import { ServiceError } from './errors.ts';
import {
  auditScopeOf,
  broadcastAudiencesOf,
  EARLY_ACCESS_TIER,
  editRefusal,
  hasPrioritySupport,
  isAuthorOf,
  isPublicFile,
  joinLinkOpen,
  leavesNoOwner,
  mayBookOneOnOne,
  mayChangeBooking,
  mayDownloadResource,
  mayEditPageTexts,
  mayEnterStaffArea,
  mayEnterSession,
  mayJoinSession,
  mayLike,
  mayManageLicence,
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
  maySeeBroadcastSection,
  maySeeJoinLink,
  mayStudyCourse,
  mayWatchLesson,
  mayWatchRecording,
  offersUpgrade,
  opensEarly,
  ONE_ON_ONE_GOLD_ONLY,
  OWNER_ONLY,
  postingRefusal,
  readsCommunityFeed,
  refuseFile,
  requireMember,
  requireStaff,
  requireStaffArea,
  requireStaffSignIn,
  showsTierBadge,
  showsTierLock,
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

// A one-hour session at 16:00 UTC on 1 September 2026, not cancelled.
const silverSession = { startsAt: new Date('2026-09-01T16:00:00Z'), durationMinutes: 60, cancelledAt: null };

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
  ['find a public file public (sent to anyone, kept by shared caches)', () => isPublicFile({ accessTier: null }), [...KINDS]],
  ['find a Bronze file public', () => isPublicFile({ accessTier: 'bronze' }), []],
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
  ['read the community feed (not its preview)', (viewer) => readsCommunityFeed(viewer), MEMBERS],
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
  ['list the broadcasts sent to Silver', (viewer) => broadcastAudiencesOf(viewer).includes('silver'), ['silver', 'downgraded']],
  ["get a broadcast's unmarked section", (viewer) => maySeeBroadcastSection(viewer, { tier: null }), [...KINDS]],
  [
    "get a broadcast's [silver] section",
    (viewer) => maySeeBroadcastSection(viewer, { tier: 'silver' }),
    ['silver', 'gold', 'suspended', 'downgraded'],
  ],
  ['join a Silver session', (viewer) => mayJoinSession(viewer, { minTier: 'silver' }), ['silver', 'gold', 'suspended', 'downgraded']],
  ['join a session open to the free plan', (viewer) => mayJoinSession(viewer, { minTier: 'free' }), MEMBERS],
  ['join a Gold event', (viewer) => mayJoinSession(viewer, { minTier: 'gold' }), GOLD],
  [
    "see a Silver session's join link 10 minutes before it starts",
    (viewer) => maySeeJoinLink(viewer, { ...silverSession, minTier: 'silver' }, new Date('2026-09-01T15:50:00Z')),
    ['silver', 'gold', 'suspended', 'downgraded'],
  ],
  [
    "see a Silver session's join link a day before it starts",
    (viewer) => maySeeJoinLink(viewer, { ...silverSession, minTier: 'silver' }, new Date('2026-08-31T16:00:00Z')),
    [],
  ],
  [
    "see a cancelled session's join link while it would run",
    (viewer) =>
      maySeeJoinLink(
        viewer,
        { ...silverSession, minTier: 'free', cancelledAt: new Date('2026-08-30T00:00:00Z') },
        new Date('2026-09-01T16:10:00Z'),
      ),
    [],
  ],
  [
    'enter a Silver session 10 minutes before it starts, holding a place',
    (viewer) =>
      mayEnterSession(
        viewer,
        { ...silverSession, minTier: 'silver' },
        { rsvped: true, waitlisted: false },
        new Date('2026-09-01T15:50:00Z'),
      ),
    ['silver', 'gold', 'suspended', 'downgraded'],
  ],
  [
    'enter a Silver session from its waiting list',
    (viewer) =>
      mayEnterSession(
        viewer,
        { ...silverSession, minTier: 'silver' },
        { rsvped: true, waitlisted: true },
        new Date('2026-09-01T15:50:00Z'),
      ),
    [],
  ],
  [
    'enter a Silver session without an RSVP',
    (viewer) =>
      mayEnterSession(
        viewer,
        { ...silverSession, minTier: 'silver' },
        { rsvped: false, waitlisted: false },
        new Date('2026-09-01T15:50:00Z'),
      ),
    [],
  ],
  [
    "watch a Bronze session's recording whose video is Gold's",
    (viewer) => mayWatchRecording(viewer, { minTier: 'bronze', file: { accessTier: 'gold' } }),
    [...GOLD, ...STAFF],
  ],
  ["watch a Gold session's recording", (viewer) => mayWatchRecording(viewer, { minTier: 'gold' }), [...GOLD, ...STAFF]],
  ["watch a Bronze session's recording", (viewer) => mayWatchRecording(viewer, { minTier: 'bronze' }), [...BRONZE_UP, ...STAFF]],
  ['head the staff inbox (priority support)', (viewer) => hasPrioritySupport(viewer), ['silver', 'gold', 'suspended', 'downgraded']],
  ['book a monthly 1-on-1', (viewer) => mayBookOneOnOne(viewer), GOLD],
  // A member's licence is theirs alone; another member's, or staff, never reach it.
  ['manage their own licence', (viewer, kind) => mayManageLicence(viewer, { memberId: VIEWERS[kind].member?.id ?? 'nobody' }), MEMBERS],
  ["manage another member's licence", (viewer) => mayManageLicence(viewer, { memberId: 'another member' }), []],
  ["edit the pages' texts", (viewer) => mayEditPageTexts(viewer), STAFF],
  ...STAFF_AREAS.map((area): [string, (viewer: Viewer) => boolean, Kind[]] => [
    `enter the ${area} staff area`,
    (viewer) => mayEnterStaffArea(viewer, area),
    ['members', 'billing', 'staff', 'automations'].includes(area) ? ['owner'] : STAFF,
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
      expect(readsCommunityFeed(browser)).toBe(readsCommunityFeed(server));
      expect(mayJoinSession(browser, { minTier: 'silver' })).toBe(mayJoinSession(server, { minTier: 'silver' }));
      expect(mayWatchRecording(browser, { minTier: 'gold' })).toBe(mayWatchRecording(server, { minTier: 'gold' }));
      expect(hasPrioritySupport(browser)).toBe(hasPrioritySupport(server));
      expect(mayBookOneOnOne(browser)).toBe(mayBookOneOnOne(server));
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

  it('lets every staff account sign in, two-factor set up or not, and refuses members and visitors', () => {
    const pending = staff('owner', { enabled: false, required: true });
    expect(KINDS.map((kind) => refusalOf(() => requireStaffSignIn(VIEWERS[kind])))).toEqual([
      { status: 401, message: 'Please sign in as an administrator.' },
      ...MEMBERS.map(() => ({ status: 403, message: 'This needs an administrator account.' })),
      null,
      null,
    ]);
    expect(refusalOf(() => requireStaffSignIn(pending))).toBeNull();
    expect(requireStaffSignIn(pending).role).toBe('owner');
  });

  it('shows owners the whole activity log and editors only the content changes', () => {
    expect(auditScopeOf(VIEWERS.owner)).toBe('everything');
    expect(auditScopeOf(VIEWERS.editor)).toBe('content');
    expect(refusalOf(() => auditScopeOf(VIEWERS.visitor))).toEqual({ status: 401, message: 'Please sign in as an administrator.' });
    for (const kind of MEMBERS)
      expect(
        refusalOf(() => auditScopeOf(VIEWERS[kind])),
        kind,
      ).toEqual({ status: 403, message: 'This needs an administrator account.' });
    expect(refusalOf(() => auditScopeOf(staff('owner', { enabled: false, required: true })))).toEqual({
      status: 403,
      message: TWO_FACTOR_SETUP_FIRST,
    });
  });

  it('asks a visitor refused a file to sign in, and tells anyone else to upgrade', () => {
    const upgrade = (what: string) => ({
      status: 403,
      message: `Your membership does not include this ${what}. Upgrade your plan to open it.`,
    });
    expect(KINDS.map((kind) => refusalOf(() => refuseFile(VIEWERS[kind], 'file')))).toEqual([
      { status: 401, message: 'Please sign in to open this file.' },
      ...[...MEMBERS, ...STAFF].map(() => upgrade('file')),
    ]);
    expect(refusalOf(() => refuseFile(VIEWERS.bronze, "lesson's video"))).toEqual(upgrade("lesson's video"));
  });

  it('never leaves the site without an owner', () => {
    expect(leavesNoOwner({ from: 'owner', to: 'editor' }, 1)).toBe(true);
    expect(leavesNoOwner({ from: 'owner', to: null }, 1)).toBe(true);
    expect(leavesNoOwner({ from: 'owner', to: 'editor' }, 2)).toBe(false);
    expect(leavesNoOwner({ from: 'editor', to: null }, 1)).toBe(false);
    expect(leavesNoOwner({ from: 'owner', to: 'owner' }, 1)).toBe(false);
  });
});

describe('live coaching and 1-on-1 times', () => {
  const at = (iso: string) => new Date(iso);

  it('opens the join link 15 minutes before the start until the end, and never for a cancelled session', () => {
    const open = (iso: string) => joinLinkOpen(silverSession, at(iso));
    expect(open('2026-09-01T15:44:59Z')).toBe(false);
    expect(open('2026-09-01T15:45:00Z')).toBe(true);
    expect(open('2026-09-01T16:00:00Z')).toBe(true);
    expect(open('2026-09-01T16:59:59Z')).toBe(true);
    expect(open('2026-09-01T17:00:00Z')).toBe(false);
    expect(joinLinkOpen({ ...silverSession, cancelledAt: at('2026-08-30T00:00:00Z') }, at('2026-09-01T16:10:00Z'))).toBe(false);
    expect(joinLinkOpen({ ...silverSession, durationMinutes: 15 }, at('2026-09-01T16:15:00Z'))).toBe(false);
  });

  it('lets a 1-on-1 be changed until a day before it starts, not after', () => {
    const booking = { startsAt: at('2026-09-10T09:00:00Z') };
    expect(mayChangeBooking(booking, at('2026-09-01T09:00:00Z'))).toBe(true);
    expect(mayChangeBooking(booking, at('2026-09-09T09:00:00Z'))).toBe(true);
    expect(mayChangeBooking(booking, at('2026-09-09T09:00:01Z'))).toBe(false);
    expect(mayChangeBooking(booking, at('2026-09-10T10:00:00Z'))).toBe(false);
  });

  it('answers for a member’s account (mail to a member) as for the member signed in', () => {
    for (const tier of TIERS) {
      const account = { membershipTier: tier };
      const viewer = member(tier);
      expect(mayJoinSession(account, { minTier: 'silver' }), tier).toBe(mayJoinSession(viewer, { minTier: 'silver' }));
      expect(hasPrioritySupport(account), tier).toBe(hasPrioritySupport(viewer));
      expect(mayBookOneOnOne(account), tier).toBe(mayBookOneOnOne(viewer));
      expect(mayReadBroadcast(account, { audience: ['silver'] }), tier).toBe(tier === 'silver');
      expect(broadcastAudiencesOf(account), tier).toEqual([tier]);
      for (const section of TIERS)
        expect(maySeeBroadcastSection(account, { tier: section }), `${tier} reading a [${section}] section`).toBe(
          maySeeBroadcastSection(viewer, { tier: section }),
        );
    }
    expect(ONE_ON_ONE_GOLD_ONLY).toBe('Monthly 1-on-1 coaching is part of the Gold plan. Upgrade to Gold to book.');
  });
});

describe('what pages show of a tier', () => {
  it('badges Silver and Gold authors and offers the free plan an upgrade', () => {
    expect(TIERS.filter((tier) => showsTierBadge(tier))).toEqual(['silver', 'gold']);
    expect(showsTierBadge(null)).toBe(false);
    expect(TIERS.filter((tier) => offersUpgrade(tier))).toEqual(['free']);
  });

  it('lets courses below Gold open to Gold members first', () => {
    expect(EARLY_ACCESS_TIER).toBe('gold');
    expect(TIERS.filter((tier) => opensEarly({ tier }))).toEqual(['free', 'bronze', 'silver']);
  });

  it('locks the resources that need a paid plan', () => {
    expect(TIERS.filter((tier) => showsTierLock(tier))).toEqual(['bronze', 'silver', 'gold']);
  });
});
