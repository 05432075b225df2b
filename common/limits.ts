// SPEC 9 "Limits": counts and sizes both sides use.
export const PASSWORD_MIN_LENGTH = 6;
export const HOME_PODCAST_EPISODES = 3;
export const DASHBOARD_MAX_ITEMS = 3;
/** A visitor reads the first two community posts in full; the rest are blurred. */
export const COMMUNITY_PREVIEW_POSTS = 2;
export const NAV_SCROLL_THRESHOLD_PX = 20;
export const CONTENT_SAVE_RELOAD_DELAY_MS = 500;
export const DEFAULT_EPISODE_DURATION = '45:00';

// Brute-force protection: attempts allowed per window before a 429 (server/http/attempt-limiter.ts).
export const MEMBER_AUTH_LIMITS = {
  perAddress: { max: 30, windowMs: 15 * 60 * 1000 },
  perAccount: { max: 8, windowMs: 15 * 60 * 1000 },
} as const;
/** Staff sign-in: a few free tries, then each further try doubles the wait. */
export const STAFF_LOGIN_LIMITS = {
  perAddress: { max: 10, windowMs: 15 * 60 * 1000 },
  perAccount: { max: 5, windowMs: 15 * 60 * 1000 },
} as const;
/** Contact form messages per client address. */
export const CONTACT_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 } as const;
