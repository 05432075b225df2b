// SPEC 9 "Limits": counts and sizes both sides use.
export const PASSWORD_MIN_LENGTH = 6;
export const HOME_PODCAST_EPISODES = 3;
export const DASHBOARD_MAX_ITEMS = 3;
/** A visitor reads the first two community posts in full; the rest are blurred. */
export const COMMUNITY_PREVIEW_POSTS = 2;
export const NAV_SCROLL_THRESHOLD_PX = 20;
export const CONTENT_SAVE_RELOAD_DELAY_MS = 500;
export const DEFAULT_EPISODE_DURATION = '45:00';

// Brute-force protection (server/http/attempt-limiter.ts). Every sign-in attempt counts per client
// address; failed ones also count per account *and* address, so guesses from one place never lock
// the owner out when they sign in from another. Past a limit, each further try doubles the wait.
const FIFTEEN_MINUTES = 15 * 60 * 1000;
export const MEMBER_AUTH_LIMITS = {
  perAddress: { max: 40, windowMs: FIFTEEN_MINUTES, growing: true },
  perAccountAndAddress: { max: 8, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Staff sign-in: stricter, a few free tries. */
export const STAFF_LOGIN_LIMITS = {
  perAddress: { max: 20, windowMs: FIFTEEN_MINUTES, growing: true },
  perAccountAndAddress: { max: 5, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Sign-ups per client address (creating accounts in bulk is the abuse there). */
export const SIGNUP_LIMIT = { max: 30, windowMs: FIFTEEN_MINUTES } as const;
/** A member's live sessions (devices); a new sign-in past this ends the oldest. */
export const MAX_LIVE_SESSIONS = 10;
/** Contact form messages per client address. */
export const CONTACT_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 } as const;

// Lists are read a page at a time, in the order of an index (docs/decisions/013): rows per page.
export const PAGE_SIZE = {
  /** The community preview and feed; the spec's `GET /api/community/posts` too. */
  communityFeed: 20,
  /** Pinned discussions heading the first page. */
  communityPinned: 5,
  /** Replies under a discussion. */
  communityReplies: 50,
  /** A member's own lists: replies to their posts, enrolments, certificates. */
  memberList: 20,
  /** Staff lists: members, audit log, files, messages. */
  staffList: 50,
  /** The moderation page's two lists (reports and discussions), whose rows carry their buttons. */
  moderation: 20,
} as const;

// Every check of a secret is limited, and cheap when wrong (docs/decisions/014).
/** Reset and invitation links tried: every try per client address, and per link (guessed at from many places). */
export const RESET_CONFIRM_LIMITS = {
  perAddress: { max: 10, windowMs: FIFTEEN_MINUTES, growing: true },
  perLink: { max: 5, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Wrong current passwords (changing the password or the email, deleting the account): like sign-in. */
export const CURRENT_PASSWORD_LIMITS = {
  perMember: { max: 8, windowMs: FIFTEEN_MINUTES, growing: true },
  perAddress: { max: 20, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Answers that an address is taken (sign-up, email change), per client address: a few, then 429. */
export const TAKEN_ADDRESS_LIMIT = { max: 5, windowMs: FIFTEEN_MINUTES } as const;

/** SPEC 9: a cancelled member's data is kept this long after their plan ends, then removed. */
export const DATA_KEPT_AFTER_CANCELLATION_DAYS = 90;
