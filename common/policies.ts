import { GOLD_SPACE_ONLY, SUSPENDED, UPGRADE_TO_PARTICIPATE, type CommunitySpace } from './community.contract.ts';
import { COACHING, COMMUNITY_PREVIEW_POSTS, ONE_ON_ONE } from './limits.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { StaffRole } from './staff-roles.ts';
import { addDays, formatDateInZone, instantOf, localDateOf } from './time-zones.ts';
import { tierReaches, TIERS, type Tier } from './tiers.ts';
import type { PublicViewer, SignedInMember, SignedInStaff, Viewer } from './viewer.ts';

// Who may see, open or do what: every such rule of the product is a named function here, and
// nothing else decides access. Services call them on every request (a changed tier or role counts
// at once), and pages call the same functions to show the right buttons (the server checks again).

/**
 * Who asks, as the rules see them: the server's viewer, the browser's public viewer, or a member's
 * account (when mail is sent to a member who is not the one asking).
 */
export type Asker = Viewer | PublicViewer | { membershipTier: Tier };

function tierOf(asker: Asker): Tier | null {
  if ('membershipTier' in asker) return asker.membershipTier;
  if (!asker.member) return null;
  return 'membershipTier' in asker.member ? asker.member.membershipTier : asker.member.membership_tier;
}

const isStaff = (asker: Asker) => 'staff' in asker && asker.staff !== null;
const reaches = (asker: Asker, floor: Tier) => {
  const tier = tierOf(asker);
  return tier !== null && tierReaches(tier, floor);
};

// ---- Signing in -----------------------------------------------------------------------------

/** The signed-in member, or a 401; a staff session is not a member session. */
export function requireMember(viewer: Viewer): SignedInMember {
  if (!viewer.member) throw unauthorized();
  return viewer.member;
}

export const TWO_FACTOR_SETUP_FIRST = 'Owners require two-factor sign-in for staff: set it up under Security first.';

/** The signed-in staff account, whatever it may do yet; 401 without a session, 403 for a member's session. */
export function requireStaffSignIn(viewer: Viewer): SignedInStaff {
  if (viewer.staff) return viewer.staff;
  if (viewer.member) throw forbidden('This needs an administrator account.');
  throw unauthorized('Please sign in as an administrator.');
}

/** The signed-in staff account, ready to work: with two-factor sign-in set up where owners require it. */
export function requireStaff(viewer: Viewer): SignedInStaff {
  const staff = requireStaffSignIn(viewer);
  if (staff.twoFactorRequired && !staff.twoFactorEnabled) throw forbidden(TWO_FACTOR_SETUP_FIRST);
  return staff;
}

// ---- Staff areas ----------------------------------------------------------------------------

/** The parts of the admin area, each for the roles whose work it is. */
export const STAFF_AREAS = [
  'content',
  'coaching',
  'community',
  'messages',
  'broadcasts',
  'activity',
  'members',
  'billing',
  'staff',
  // Lifecycle mail's settings (its figures are the broadcasts area's to read).
  'automations',
] as const;
export type StaffArea = (typeof STAFF_AREAS)[number];

// Editors author content (broadcasts too), coach and moderate; members, billing and staff are the owners' alone.
const EDITOR_AREAS: ReadonlySet<StaffArea> = new Set(['content', 'coaching', 'community', 'messages', 'broadcasts', 'activity']);

export const OWNER_ONLY = 'Only an owner can do this: editors author content, owners manage staff, members and billing.';

/** Whether the viewer is staff whose role includes this area (pages ask it too, to show the tabs). */
export function mayEnterStaffArea(viewer: Viewer | PublicViewer, area: StaffArea): boolean {
  return viewer.staff !== null && (viewer.staff.role === 'owner' || EDITOR_AREAS.has(area));
}

/** The staff account, if its role includes this area: 401 without a staff session, 403 otherwise. */
export function requireStaffArea(viewer: Viewer, area: StaffArea): SignedInStaff {
  const staff = requireStaff(viewer);
  if (!mayEnterStaffArea(viewer, area)) throw forbidden(OWNER_ONLY);
  return staff;
}

/** Editing the site's texts in place (the pages' edit mode) is the content area's work. */
export const mayEditPageTexts = (viewer: Viewer | PublicViewer) => mayEnterStaffArea(viewer, 'content');

/** Moderating the community (hiding, pinning, locking, suspending) is the community area's work. */
export const mayModerate = (viewer: Viewer) => mayEnterStaffArea(viewer, 'community');

/** Audit entries about what editors change: courses, lessons, files, the podcast, resources, texts, coaching. */
export const CONTENT_AUDIT_ACTIONS = ['content', 'course', 'lesson', 'file', 'podcast', 'resource', 'coaching', 'ce_requirement'] as const;

/**
 * Which entries of the audit log this staff member reads: owners every one; editors only the
 * content changes (no member's email, no billing, no staff change).
 */
export function auditScopeOf(viewer: Viewer): 'everything' | 'content' {
  return requireStaffArea(viewer, 'activity').role === 'owner' ? 'everything' : 'content';
}

/** Whether a change to one staff account (a new role, or none: removed) leaves the site without an owner (LAST_OWNER). */
export function leavesNoOwner(change: { from: StaffRole; to: StaffRole | null }, owners: number): boolean {
  return change.from === 'owner' && change.to !== 'owner' && owners <= 1;
}

// ---- Courses, lessons and files -------------------------------------------------------------

/**
 * Whether the asker may see a course at all: a published one everyone; a draft or an archived one
 * staff; an archived one also the members enrolled in it (asked only then, as it costs a read).
 */
export async function mayOpenCourse(
  asker: Asker,
  course: { status: 'draft' | 'published' | 'archived' },
  isEnrolled: () => Promise<boolean>,
): Promise<boolean> {
  if (course.status === 'published' || isStaff(asker)) return true;
  return course.status === 'archived' && tierOf(asker) !== null && (await isEnrolled());
}

/** Whether a member may take the course: enrol, complete its lessons, earn its certificate (SPEC 4: their tier reaches the course's). */
export const mayStudyCourse = (asker: Asker, course: { tier: Tier }) => reaches(asker, course.tier);

/** Decision 017: Gold sells early access: a course may open to Gold members first, its stored tier Gold until the date. */
export const EARLY_ACCESS_TIER = 'gold' as const satisfies Tier;

/** Whether a course of this tier can open to Gold members first (a Gold course is theirs already). */
export const opensEarly = (course: { tier: Tier }) => !tierReaches(course.tier, EARLY_ACCESS_TIER);

/** Whether the asker may open the course's lessons (videos and attachments): members who may study it, and staff. */
export const mayOpenLessons = (asker: Asker, course: { tier: Tier }) => mayStudyCourse(asker, course) || isStaff(asker);

/**
 * Where a member stands with the course a course builds on (null: it builds on none, or on one no
 * longer published, which no one could complete now).
 */
export interface PrerequisiteStanding {
  id: string;
  title: string;
  /** The member completed every lesson of it. */
  completed: boolean;
  /** The member started this course before it required the other: they keep going. */
  started: boolean;
  /** Staff opened this course early for the member (an audit entry says who and why). */
  openedEarly: boolean;
}

/** Whether the asker may study a course that builds on another: staff always, members once it is done (or as above). */
export const meetsPrerequisite = (asker: Asker, standing: PrerequisiteStanding | null) =>
  standing === null || isStaff(asker) || standing.completed || standing.started || standing.openedEarly;

/** What a member is told while a course's prerequisite stands in the way. */
export const prerequisiteFirst = (title: string) => `Complete “${title}” first: this course builds on it.`;

/** A dripped lesson's schedule: days after the member started the course, or a date; neither, it opens with the course. */
export interface LessonSchedule {
  opensAfterDays: number | null;
  /** YYYY-MM-DD. */
  opensOn: string | null;
}

/** When a lesson opens: at an instant, 'after start' while it counts from a start not yet made, or null (no schedule). */
export type LessonOpening = Date | 'after start' | null;

const midnightOf = (date: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0 }, zone);
};

/**
 * When a dripped lesson opens to a member: midnight, in the member's zone, of its date or of the day
 * that many days after the one they started the course on.
 */
export function lessonOpening(schedule: LessonSchedule, startedAt: Date | null, zone: string): LessonOpening {
  if (schedule.opensOn) return midnightOf(schedule.opensOn, zone);
  if (!schedule.opensAfterDays) return null;
  if (!startedAt) return 'after start';
  return midnightOf(addDays(localDateOf(startedAt, zone), schedule.opensAfterDays), zone);
}

/** Whether a lesson is still closed to the asker: not to staff, nor to a member staff opened the course for early. */
export const lessonStillClosed = (asker: Asker, opening: LessonOpening, openedEarly: boolean, now: Date) =>
  !isStaff(asker) && !openedEarly && opening !== null && (opening === 'after start' || opening > now);

/** What a member is told of a lesson not open yet. */
export const lessonOpensLater = (schedule: LessonSchedule, opening: LessonOpening, zone: string) =>
  opening instanceof Date
    ? `This lesson opens on ${formatDateInZone(opening, zone)}.`
    : `This lesson opens ${schedule.opensAfterDays} ${schedule.opensAfterDays === 1 ? 'day' : 'days'} after you start the course.`;

/** Whether the asker may watch a lesson's video: a free preview's everyone may, the others who may open the lessons. */
export const mayWatchLesson = (asker: Asker, lesson: { courseTier: Tier; freePreview: boolean }) =>
  lesson.freePreview || mayOpenLessons(asker, { tier: lesson.courseTier });

/** Whether the asker may open an uploaded file: a public one (no tier) everyone, staff every one, members what their tier reaches. */
export const mayOpenFile = (asker: Asker, file: { accessTier: Tier | null }) =>
  file.accessTier === null || isStaff(asker) || reaches(asker, file.accessTier);

const NO_ONE: PublicViewer = { member: null, staff: null };

/** Whether a file is public: a visitor may open it, so it goes to anyone by its address and shared caches may keep it. */
export const isPublicFile = (file: { accessTier: Tier | null }) => mayOpenFile(NO_ONE, file);

/** A place that serves an uploaded file through its own check: a lesson's video, a resource's download, a session's recording. */
export type FileUse =
  | ({ as: 'lesson video'; lessonId: string; courseId: string; courseTier: Tier; freePreview: boolean } & LessonSchedule)
  | ({ as: 'lesson attachment'; lessonId: string; courseId: string; courseTier: Tier } & LessonSchedule)
  | { as: 'download'; tierRequired: Tier }
  | { as: 'recording'; minTier: Tier };

function placeLetsIn(asker: Asker, place: FileUse): boolean {
  if (place.as === 'lesson video') return mayWatchLesson(asker, place);
  if (place.as === 'lesson attachment') return mayOpenLessons(asker, { tier: place.courseTier });
  if (place.as === 'download') return mayDownloadResource(asker, place);
  return mayWatchRecording(asker, place);
}

/**
 * Whether the asker may open a file that these places serve (on their routes: that one place; by
 * the file's id: every place using it). The file's own rule and each place's must let them in, so
 * neither opens what the other keeps: a public video in a Gold course stays Gold's, and so does a
 * Gold-only video in a Bronze course. (A lesson's course must also be visible to them: the service asks.)
 */
export const mayOpenServedFile = (asker: Asker, file: { accessTier: Tier | null }, places: readonly FileUse[]) =>
  mayOpenFile(asker, file) && places.every((place) => placeLetsIn(asker, place));

/** Whether a file goes to anyone by its address and shared caches may keep it: public, and served by no place with a check of its own. */
export const isOpenToAll = (file: { accessTier: Tier | null }, places: readonly FileUse[]) => isPublicFile(file) && places.length === 0;

/** A lesson's attachment opens where the lessons open and the file itself opens (it keeps its own visibility). */
export const mayOpenAttachment = (asker: Asker, course: { tier: Tier }, file: { accessTier: Tier | null }) =>
  mayOpenLessons(asker, course) && mayOpenFile(asker, file);

/** The 401 or 403 for an asker who may not open a file, a lesson's video or a download. */
export function refuseFile(viewer: Viewer, what: string): never {
  if (!viewer.member && !viewer.staff) throw unauthorized(`Please sign in to open this ${what}.`);
  throw forbidden(`Your membership does not include this ${what}. Upgrade your plan to open it.`);
}

// ---- Resources and offline use --------------------------------------------------------------

/** Whether the asker may download a resource: members whose tier reaches tier_required, and staff. */
export const mayDownloadResource = (asker: Asker, resource: { tierRequired: Tier }) =>
  isStaff(asker) || reaches(asker, resource.tierRequired);

/** SPEC 9: downloads for offline use come with Bronze, Silver and Gold. */
export const maySaveOffline = (asker: Asker) => reaches(asker, 'bronze');

// ---- The community --------------------------------------------------------------------------

/** SPEC 6: a visitor reads the full text of the first posts of the preview only; members read every post. */
export const mayReadPreviewInFull = (asker: Asker, position: { firstPage: boolean; index: number }) =>
  tierOf(asker) !== null || (position.firstPage && position.index < COMMUNITY_PREVIEW_POSTS);

/** SPEC 6: members (any tier) read the community's feed; everyone else, staff included, its preview. */
export const readsCommunityFeed = (asker: Asker) => tierOf(asker) !== null;

/** Whether the asker reads the Gold Lounge: Gold members, decided on every read from the tier they have now. */
export const mayReadGoldLounge = (asker: Asker) => reaches(asker, 'gold');

/** Whether the asker reads the posts of a space: the Gold Lounge's are for Gold members only. */
export const mayReadPostsIn = (asker: Asker, space: CommunitySpace) => space !== 'gold' || mayReadGoldLounge(asker);

/** The lowest tier that reads a space (what a notification about it needs when it is read). */
export const tierToReadPostsIn = (space: CommunitySpace): Tier => (space === 'gold' ? 'gold' : 'free');

/** Who takes part (SPEC 9, 'full community'): Bronze and above. */
const takesPart = (asker: Asker) => reaches(asker, 'bronze');

export const SIGN_IN_TO_TAKE_PART = 'Sign in to take part in the community.';

/** Why the asker may not post or reply in this space, or null when they may. */
export function postingRefusal(viewer: Viewer, space: CommunitySpace): string | null {
  if (!viewer.member) return SIGN_IN_TO_TAKE_PART;
  if (!takesPart(viewer)) return UPGRADE_TO_PARTICIPATE;
  if (viewer.member.communitySuspendedAt) return SUSPENDED;
  if (space === 'gold' && !mayReadGoldLounge(viewer)) return GOLD_SPACE_ONLY;
  return null;
}

/** Whether the asker may like posts in this space: liking is not posting, so a suspended member still may. */
export const mayLike = (asker: Asker, space: CommunitySpace) => takesPart(asker) && (space === 'general' || mayReadGoldLounge(asker));

/** Whether this is the asker's own post or reply (to edit or delete it). */
export const isAuthorOf = (viewer: Viewer, item: { authorId: string | null }) =>
  viewer.member !== null && item.authorId === viewer.member.id;

/** Why the asker may not edit their post or reply in this space, or null when they may: it is theirs, and they may still post there. */
export function editRefusal(viewer: Viewer, item: { authorId: string | null }, space: CommunitySpace, what: string): string | null {
  if (!isAuthorOf(viewer, item)) return `You can only change your own ${what}.`;
  return postingRefusal(viewer, space);
}

// ---- Live coaching ----------------------------------------------------------------------------

/** Whether a member may join a session (RSVP, add it to a calendar, open its link): their tier reaches its lowest tier. */
export const mayJoinSession = (asker: Asker, session: { minTier: Tier }) => reaches(asker, session.minTier);

/** Whether the session's join link opens now: from shortly before the start until the end, unless cancelled. */
export function joinLinkOpen(session: { startsAt: Date; durationMinutes: number; cancelledAt: Date | null }, now: Date): boolean {
  const opens = session.startsAt.getTime() - COACHING.joinOpensMinutesBefore * 60_000;
  const ends = session.startsAt.getTime() + session.durationMinutes * 60_000;
  return session.cancelledAt === null && now.getTime() >= opens && now.getTime() < ends;
}

/** Whether the asker sees the join link now: a member who may join, while it is open. */
export const maySeeJoinLink = (asker: Asker, session: Parameters<typeof joinLinkOpen>[0] & { minTier: Tier }, now: Date) =>
  mayJoinSession(asker, session) && joinLinkOpen(session, now);

/**
 * Whether the member goes into the session now (its join link, and through the join redirect): the
 * link is theirs to see, and they hold a place. Waiting for one is not a place: the capacity holds.
 */
export const mayEnterSession = (
  asker: Asker,
  session: Parameters<typeof maySeeJoinLink>[1],
  place: { rsvped: boolean; waitlisted: boolean },
  now: Date,
) => place.rsvped && !place.waitlisted && maySeeJoinLink(asker, session, now);

/**
 * Whether the asker may watch a session's recording: members whose tier reaches the session's, and
 * staff; an uploaded video also keeps its own file's rule (a Gold-only file on a Bronze session stays Gold's).
 */
export const mayWatchRecording = (asker: Asker, recording: { minTier: Tier; file?: { accessTier: Tier | null } | null }) =>
  (mayJoinSession(asker, recording) || isStaff(asker)) && (!recording.file || mayOpenFile(asker, recording.file));

/** Silver and Gold sell priority support: their messages head the staff inbox. */
export const hasPrioritySupport = (asker: Asker) => reaches(asker, 'silver');

export const ONE_ON_ONE_GOLD_ONLY = 'Monthly 1-on-1 coaching is part of the Gold plan. Upgrade to Gold to book.';

/** Whether the asker may book a monthly 1-on-1 with a coach: Gold members (the plan sells it). */
export const mayBookOneOnOne = (asker: Asker) => reaches(asker, 'gold');

/** A 1-on-1 is changed or cancelled by its member up to a day before it starts (the coach plans their day). */
export const mayChangeBooking = (booking: { startsAt: Date }, now: Date) =>
  booking.startsAt.getTime() - now.getTime() >= ONE_ON_ONE.changeUntilMs;

// ---- Broadcasts -------------------------------------------------------------------------------

/**
 * The audiences whose sent broadcasts the asker reads on the site: the tier they have now (none for
 * visitors and staff). The members' list asks the database for these; a single read asks mayReadBroadcast.
 */
export const broadcastAudiencesOf = (asker: Asker): Tier[] => {
  const tier = tierOf(asker);
  return tier === null ? [] : [tier];
};

/** Whether a member may read a sent broadcast on the site: it went to the tier they have now. */
export const mayReadBroadcast = (asker: Asker, broadcast: { audience: readonly Tier[] }) =>
  broadcastAudiencesOf(asker).some((tier) => broadcast.audience.includes(tier));

/**
 * Whether the asker gets a section of a broadcast's text (the mail, and the copy on the site): an
 * unmarked section everyone; a [silver] section members of Silver and above.
 */
export const maySeeBroadcastSection = (asker: Asker, section: { tier: Tier | null }) =>
  section.tier === null || reaches(asker, section.tier);

// ---- What pages show of a tier --------------------------------------------------------------

/** SPEC 6: Silver and Gold members carry their tier's badge beside their name. */
export const showsTierBadge = (tier: Tier | null): tier is 'silver' | 'gold' => tier !== null && tierReaches(tier, 'silver');

/** The resources list marks one that needs a paid plan with a lock and its tier, whoever looks. */
export const showsTierLock = (tier: Tier) => tierReaches(tier, 'bronze');

/** SPEC 5: the dashboard offers an upgrade to a member on the free plan. */
export const offersUpgrade = (tier: Tier) => !tierReaches(tier, 'bronze');

// ---- Notifications ----------------------------------------------------------------------------

/**
 * The tiers of what a member may read in their notifications now (those at or below their tier):
 * a notification about the Gold Lounge or a Gold session is left out once they are Gold no more.
 */
export const notificationTiersOf = (asker: Asker): Tier[] => TIERS.filter((tier) => reaches(asker, tier));

/** Whether a member may read one notification (or get its push) now. */
export const mayReadNotification = (asker: Asker, notification: { requiredTier: Tier }) => reaches(asker, notification.requiredTier);

/** The tiers whose members news for `tier` and above is for (a new Silver session: Silver and Gold). */
export const tiersReaching = (tier: Tier): Tier[] => TIERS.filter((each) => tierReaches(each, tier));

// ---- The CE ledger (issue 33, part 4) --------------------------------------------------------------

/** Each state's CE requirement is kept by those who author the courses that count toward it. */
export const mayKeepCeRequirements = (viewer: Viewer | PublicViewer) => mayEnterStaffArea(viewer, 'content');

/** A licence in the ledger, and the entries against it: its member's alone (staff read a team's standing, not the licence). */
export const mayManageLicence = (viewer: Viewer, licence: { memberId: string }) => viewer.member?.id === licence.memberId;

/** A certificate of CE taken elsewhere: its member's, and the owners' who answer a commission's audit with them. */
export const mayOpenCeCertificate = (viewer: Viewer, entry: { memberId: string }) =>
  viewer.member?.id === entry.memberId || mayEnterStaffArea(viewer, 'members');
