// SPEC 9 "Limits": counts and sizes both sides use.
export const PASSWORD_MIN_LENGTH = 6;
export const HOME_PODCAST_EPISODES = 3;
export const HOME_COMMUNITY_POSTS = 2;
export const DASHBOARD_MAX_ITEMS = 3;
/** A visitor reads the first two community posts in full; the rest are blurred. */
export const COMMUNITY_PREVIEW_POSTS = 2;
export const NAV_SCROLL_THRESHOLD_PX = 20;
export const CONTENT_SAVE_RELOAD_DELAY_MS = 500;
export const DEFAULT_EPISODE_DURATION = '45:00';
