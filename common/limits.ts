// Every count, size, rate and lifetime of the product, grouped, each with why it is what it is.
// Pages and the server import them from here: no number is typed twice.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// SPEC 9 "Limits": counts and sizes both sides use.
export const PASSWORD_MIN_LENGTH = 6;
export const HOME_PODCAST_EPISODES = 3;
export const DASHBOARD_MAX_ITEMS = 3;
/** A visitor reads the first two community posts in full; the rest are blurred. */
export const COMMUNITY_PREVIEW_POSTS = 2;
export const CONTENT_SAVE_RELOAD_DELAY_MS = 500;
export const DEFAULT_EPISODE_DURATION = '45:00';

// Brute-force protection (server/http/attempt-limiter.ts). Every sign-in attempt counts per client
// address; failed ones also count per account *and* address, so guesses from one place never lock
// the owner out when they sign in from another. Past a limit, each further try doubles the wait.
const FIFTEEN_MINUTES = 15 * MINUTE;
export const MEMBER_AUTH_LIMITS = {
  perAddress: { max: 40, windowMs: FIFTEEN_MINUTES, growing: true },
  perAccountAndAddress: { max: 8, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Staff sign-in: stricter, a few free tries. */
export const STAFF_LOGIN_LIMITS = {
  perAddress: { max: 20, windowMs: FIFTEEN_MINUTES, growing: true },
  perAccountAndAddress: { max: 5, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/** Wrong current passwords at staff's sensitive changes (two-factor on or off, recovery codes, email, password): like staff sign-in. */
export const STAFF_CURRENT_PASSWORD_LIMITS = {
  perAccount: { max: 5, windowMs: FIFTEEN_MINUTES, growing: true },
  perAddress: { max: 20, windowMs: FIFTEEN_MINUTES, growing: true },
} as const;
/**
 * Wrong two-factor codes per staff account, from every address together: the tenth in a day locks its
 * codes for a day (an owner may lift it sooner) and mails the account. Ten guesses a day at three
 * good codes in a million: about one chance in a hundred a year for a thief who has the password.
 */
export const SECOND_FACTOR_LOCK = { maxFailures: 10, windowMs: DAY, lockMs: DAY } as const;
/** Sign-ups per client address (creating accounts in bulk is the abuse there). */
export const SIGNUP_LIMIT = { max: 30, windowMs: FIFTEEN_MINUTES } as const;
/** A member's live sessions (devices); a new sign-in past this ends the oldest. */
export const MAX_LIVE_SESSIONS = 10;
/** A session's last_seen_at is written at most this often, so reads stay reads. */
export const SESSION_TOUCH_EVERY_MS = MINUTE;
/** A session token longer than this is not one we issued: it is not even hashed. */
export const SESSION_TOKEN_MAX_LENGTH = 200;
/** Contact form messages per client address. */
export const CONTACT_LIMIT = { max: 5, windowMs: HOUR } as const;

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
  /** The newest episodes: `GET /api/podcast/episodes` (its `Link` names the next page), the podcast, home and dashboard pages. */
  episodes: 20,
} as const;

/**
 * Search ranks the best matches within windows of this many, newest first: ranking every match of a
 * common word would read tens of thousands of rows for a page of twenty; the next window follows
 * the last. Words with fewer matches than this are found through the full-text index alone.
 */
export const SEARCH_WINDOW = 1_000;
/**
 * Staff's member search sorts every match itself up to this many (a name or an email's part found
 * on the trigram indexes); text matching more is common enough to be found along the newest first.
 */
export const MEMBER_SEARCH_WINDOW = 5_000;

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
/** Mail the site sent is kept this long for support (it holds members' names and words), then removed. */
export const OUTBOX_KEPT_DAYS = 30;

/** Password reset requests: per client address, and per address asked about (so one inbox is not flooded). */
export const RESET_REQUEST_LIMITS = { perAddress: { max: 10, windowMs: HOUR }, perEmail: { max: 3, windowMs: HOUR } } as const;
/** Verification mails sent again on request, per member. */
export const RESEND_VERIFICATION_LIMIT = { max: 3, windowMs: HOUR } as const;
/** A member's refreshes of their plan from Stripe: each one calls Stripe. */
export const BILLING_REFRESH_LIMIT = { max: 10, windowMs: HOUR } as const;
/** A member's checkouts started (membership or team): each one makes a Stripe customer and session. */
export const CHECKOUT_LIMIT = { max: 10, windowMs: HOUR } as const;
/** Offer codes looked up per client address (the API and /pricing?offer=): codes are not to be walked. */
export const OFFER_LOOKUP_LIMIT = { max: 30, windowMs: FIFTEEN_MINUTES } as const;
/** 'Download my data' per member: each one reads everything they ever wrote. */
export const DATA_EXPORT_LIMIT = { max: 5, windowMs: HOUR } as const;

// The community, per member: enough for a lively day, not for a flood.
export const COMMUNITY_RATES = {
  post: { max: 5, windowMs: HOUR },
  reply: { max: 30, windowMs: HOUR },
  report: { max: 20, windowMs: HOUR },
} as const;
/** The same text sent again this soon is a double submission or a flood, not a new message. */
export const REPEAT_WINDOW_MS = 10 * MINUTE;

// How long each emailed link works: long enough to find the mail, short enough that an old inbox is no key.
export const LINK_VALID_MS = {
  passwordReset: HOUR,
  emailVerification: 7 * DAY,
  emailChange: DAY,
  staffInvitation: 7 * DAY,
  /** The first staff account's setup link, printed at the first start. */
  staffSetup: DAY,
} as const;
/** An emailed link's token (reset, verification, unsubscribe): ours fit well within; outside, it is refused unread. */
export const LINK_TOKEN_LENGTH = { min: 20, max: 100 } as const;

/** Single-use recovery codes for staff two-factor sign-in: enough to last until new ones are made. */
export const RECOVERY_CODES = 10;
/** The digits of an authenticator app's code (what every app shows by default). */
export const TOTP_DIGITS = 6;

// What people type, in characters: the forms' maxLength and the server's check are these numbers.
export const TEXT_MAX = {
  name: 100,
  /** RFC 5321's longest address. */
  email: 254,
  password: 200,
  /** Words searched for in a list (the community, files). */
  searchWords: 100,
  /** A staff search of the members (a name or an address). */
  memberSearch: 200,
  /** Any https link staff give (a lesson's video, a resource's download). */
  link: 500,
  courseTitle: 150,
  courseDescription: 4000,
  instructor: 100,
  /** '1h 30m', '12:30': a label, not a number. */
  duration: 40,
  lessonDescription: 4000,
  resourceTitle: 200,
  resourceDescription: 4000,
  filename: 200,
  episodeTitle: 300,
  episodeDescription: 5000,
  episodeDuration: 20,
  siteText: 5000,
  postTitle: 150,
  postBody: 5000,
  reply: 3000,
  reportReason: 500,
  contactSubject: 200,
  contactMessage: 5000,
  /** A code from an authenticator app, or a recovery code ('abcde-fghij'). */
  twoFactorCode: 11,
  sessionTitle: 150,
  sessionDescription: 4000,
  /** Notes staff add to a session's recording: a summary and the links they mentioned. */
  sessionNotes: 10000,
  broadcastSubject: 150,
  /** A broadcast's text, sections and links included. */
  broadcastBody: 20000,
  /** Where an in-person event takes place: a venue and its street address. */
  eventAddress: 300,
  /** What a member wants to work on in their 1-on-1. */
  bookingTopic: 2000,
  /** A goal's name ("Calls to past clients") and its unit ("calls"). */
  goalTitle: 100,
  goalUnit: 30,
  /** The name members see for a host or a coach. */
  displayName: 100,
  /** Why staff opened a course to a member early (the activity log keeps it). */
  earlyOpeningReason: 500,
} as const;

// Quizzes: in a module of their own, so the pages that do not show one do not carry them.
export { QUIZ } from './quiz-limits.ts';

// Captions: in a module of their own, as quizzes.
export { CAPTIONS } from './caption-limits.ts';

// The continuing-education ledger: as quizzes.
export { LICENCES } from './licence-limits.ts';

// Live coaching.
export const BROADCASTS = {
  /** Teams offered as a broadcast's audience (the latest). */
  teamsListed: 100,
  /** 'Members not seen for N days' reaches back at most ten years. */
  maxInactiveDays: 3650,
};

export const COACHING = {
  /** The join link shows this long before the start (time to find headphones), and until the end. */
  joinOpensMinutesBefore: 15,
  /** Weekly series are made into sessions this many weeks ahead, so members can plan and RSVP. */
  weeksAhead: 12,
  /** Members who RSVP'd are reminded a day before and an hour before. */
  reminders: { day: DAY, hour: HOUR },
  /** A reminder still goes out this long after its moment (a restart, a slow minute), never later. */
  reminderGraceMs: 45 * MINUTE,
  /** A session lasts 15 minutes to 8 hours. */
  minMinutes: 15,
  maxMinutes: 480,
  maxCapacity: 10_000,
  /** The schedule form's suggestions: an hour, and room for a full webinar. */
  defaultMinutes: 60,
  defaultCapacity: 100,
  /** A member's calendar feed: their sessions from a month back on, at most this many (a calendar app reads it whole). */
  feed: { reachesBackMs: 30 * DAY, maxSessions: 500 },
} as const;

/** A member's goals. */
export const GOALS = {
  /** Goals a member keeps at once: a dashboard's worth. */
  maxActive: 10,
  maxTarget: 100_000,
  /** The most one log adds (or takes back, when negative). */
  maxLogged: 10_000,
  /** Days of logs read to count a streak: a streak longer than this shows as this. */
  streakDaysRead: 366,
  /** The new goal forms' suggestions: 20 a period, a course finished within a month. */
  suggestedTarget: 20,
  suggestedCourseDays: 30,
} as const;

/** Gold's monthly 1-on-1 coaching. */
export const ONE_ON_ONE = {
  /** Bookings a Gold member holds per calendar month (of their own time zone). */
  perMonth: 1,
  /** A booking is rescheduled or cancelled up to this long before it starts, not later. */
  changeUntilMs: DAY,
  /** The days of free slots one look shows (a page; the member moves on a fortnight at a time). */
  daysShown: 14,
  /** How far ahead a member can book. */
  bookAheadDays: 90,
  /** A coach's slot length and minimum notice: their defaults, and the range they choose in. */
  slotMinutes: { standard: 45, min: 15, max: 180 },
  minNoticeHours: { standard: 24, min: 0, max: 14 * 24 },
  /** Windows of availability (and breaks) a coach sets per week, and days off kept ahead. */
  maxWindows: 50,
  maxDaysOff: 200,
  /** A member's upcoming bookings listed: half a year of monthly ones. */
  upcomingShown: 6,
  /** The coaches a Gold member chooses from: a business has a handful, so this is a bound, not a page. */
  coachesListed: 50,
} as const;
/** A member's 1-on-1 bookings and moves in a day: each mails their coach, so a change of plan or two, never a flood of the coach's inbox. */
export const ONE_ON_ONE_CHANGES = { max: 5, windowMs: DAY } as const;

/** Attachments under one lesson: a lesson's handouts, not a file library. */
export const LESSON_ATTACHMENTS_MAX = 10;
/** The furthest a lesson may open after a member starts its course (drip), in days. */
export const LESSON_DRIP_MAX_DAYS = 365;
/** How many courses may build on one another in a row (each checked when a prerequisite is chosen). */
export const COURSE_PREREQUISITE_CHAIN_MAX = 10;
/** Episodes the podcast list holds: saved all at once (SPEC's Save All Changes). */
export const PODCAST_EPISODES_MAX = 1000;
/** An episode's id (staff's or the import's) and numbers: seasons to 99, episodes to 9999, as the cards show them. */
export const PODCAST_EPISODE = { idLength: 64, maxSeason: 99, maxNumber: 9999 } as const;
/** SPEC 2: the podcast's episode pages. */
export const EPISODES_PER_PAGE = 6;

// How much of a list a screen shows where it is not paged.
export const SHOWN = {
  /** Invoices on a member's billing page: two years of monthly ones. */
  invoices: 24,
  /** Files a picker offers, of each kind; older ones are found in the File Upload tab's search. */
  pickerFiles: 100,
  /** A reported post's or reply's text in the report queue: enough to judge it there. */
  reportedText: 600,
  /** A notice's excerpt of a reply (mail, the dashboard). */
  excerpt: 160,
  /** A member's page for staff: the latest sign-ins (a member keeps a handful of live ones), sign-ups by week. */
  memberSignIns: 20,
  signUpWeeks: 12,
  /** 'Recommended for you' on the dashboard. */
  recommendations: 4,
  /** A member's own data export: the sign-ins kept with it. */
  exportedSignIns: 100,
} as const;
/** Rows read at a time when a whole list streams out (the members CSV, a member's data export). */
export const STREAM_BATCH = 500;
/** 'Recommended for you' reads a member's latest enrolments, this many (docs/decisions/016): enough to know their taste. */
export const RECOMMENDATIONS_READ = { enrolments: 50 } as const;

// Uploaded images' copies (IMAGES) and the nav's scroll threshold are in limits-every-page.ts: the
// code of every page uses them, and this whole module would otherwise come with every page.
export { IMAGES } from './limits-every-page.ts';

// The minute jobs (server/coaching/coaching-jobs.ts, in every process): members are read a batch at a
// time, and a run takes a few batches, so a backlog goes out over the next minutes while the other jobs still run.
export const JOB_BATCHES = {
  goalReminders: { size: 200, perRun: 20 },
  /** A zone's members are worked through over its hour. */
  weeklyTips: { size: 200, perRun: 20 },
  /** A large audience goes out over a few minutes. */
  broadcasts: { size: 200, perRun: 25 },
  /** Each kind of reminder (a day, an hour before) once a minute. */
  coachingReminders: { size: 200 },
  /** Dripped lessons' openings: members of a large course told over a few minutes. */
  lessonOpenings: { size: 200, perRun: 20 },
} as const;
/** The weekly tips email goes on Monday (weekday 1) at 8 in the morning of each member's zone: the week starts with it. */
export const WEEKLY_TIPS = { weekday: 1, hour: 8 } as const;

// The outbox (server/mail/mail-worker.ts): how mail is sent, and tried again.
export const MAIL_DELIVERY = {
  /** Messages a process claims at a time. */
  batch: 10,
  /** A claimed message is this process's for so long; past it (a crash), another process sends it. */
  leaseMs: MINUTE,
  /** At most 40 s between tries: with a try's timeout and the poll on top, a reset asked for in a short SMTP outage arrives within a minute of its end. */
  maxRetryWaitMs: 40 * 1000,
  /** A server that refuses the message itself (5xx: no such mailbox) is asked this many times, not forever... */
  maxRefusals: 3,
  /** ...while an outage is waited out this long: the message goes as soon as the server is back. */
  maxAgeMs: 3 * DAY,
} as const;

// Learning.
/** A lesson with video is complete once this share of it has been watched (the closing credits may be skipped). */
export const WATCHED_TO_COMPLETE = 0.9;
/** The player reports where the member is in a video this often (and on pause, at the end, on close). */
export const POSITION_REPORT_SECONDS = 10;
/** The longest video the player reports on, in seconds: a day (a lesson is never that long). */
export const VIDEO_MAX_SECONDS = DAY / 1000;
/** A certificate's code ('RP-7K3M-Q9XD-2HPA') is shorter than this; a longer one is refused before any read. */
export const CERTIFICATE_CODE_MAX_LENGTH = 40;

/** SPEC 9: a first-time subscriber may ask for their money back within this many days. */
export const MONEY_BACK_DAYS = 30;

// What each process keeps in memory, at most: entries and bytes (docs/decisions/007, 013).
export const CACHE_BOUNDS = {
  /** Pages and answers visitors share. */
  visitorPages: { maxEntries: 2_000, maxBytes: 40 * 1024 * 1024 },
  /** A signed-in member's own pages: kept a minute at most, as they show the time of day (a join link opening, the tip of the day). */
  ownPages: { maxEntries: 5_000, maxBytes: 20 * 1024 * 1024, maxAgeMs: 60_000 },
  /** A signed-in member's own API reads (a page of the community feed or a search, a few KB compressed): kept a minute at most, like their pages. */
  ownAnswers: { maxEntries: 5_000, maxBytes: 16 * 1024 * 1024, maxAgeMs: 60_000 },
  /** The catalogue (courses, lessons, episodes, resources, content): small by nature, kept whole. */
  catalogue: { maxEntries: 2_000, maxBytes: 16 * 1024 * 1024 },
  /** Members' own reads: the most recently used members' first pages. */
  memberReads: { maxEntries: 20_000, maxBytes: 20 * 1024 * 1024 },
  /** The replies to the most recently seen members' posts (their dashboards). */
  repliesToOwnPosts: { maxEntries: 10_000, maxBytes: 6 * 1024 * 1024 },
  /** The community's first pages (newest, pinned, top, a search's first window and its count), shared by every member while nothing in it changes. */
  communityPages: { maxEntries: 500, maxBytes: 8 * 1024 * 1024 },
  /** Which discussions of a page a member liked, for the most recently seen members' pages (a few ids each). */
  likedDiscussions: { maxEntries: 20_000, maxBytes: 8 * 1024 * 1024 },
  /** Discussions whose last change a process remembers (which visitor pages a like makes stale); about 100 bytes each. */
  keyedChanges: { maxEntries: 20_000 },
  /**
   * The Insights tab's figures, one per figure, period and whether billing is shown (tens of KB at most):
   * read once a minute at most and shared by all staff. They are weekly and monthly figures, so a
   * minute's delay is invisible, while owners reloading the tab at once must not each run a dozen
   * statements (32 at once drained the pool).
   */
  insightFigures: { maxEntries: 50, maxAgeMs: 60_000 },
} as const;
/** Sessions a process keeps looked up (and touches at most once a minute): the most recently seen. */
export const KEPT_SESSIONS = { maxEntries: 20_000, maxBytes: 12 * 1024 * 1024 } as const;
/**
 * Pages a process renders at once (their loaders and their HTML, up to the first byte sent); the
 * others wait their turn. Enough to overlap the database's waits on two cores, few enough that the
 * garbage of large staff pages rendered for 32 connections at once stays bounded.
 */
export const PAGE_RENDERS_AT_ONCE = 8;
/** Attempts counted in the process while Redis is away (or without it): windows past their end go first, then the oldest. */
export const IN_PROCESS_COUNTS = { pruneAbove: 50_000, maxEntries: 100_000 } as const;

// The notifications centre (server/notifications/).
export const NOTIFICATIONS = {
  /** Notifications on a page of /notifications. */
  pageSize: 20,
  /** The bell counts unread ones up to this ("99+" past it): a count, not a reading of every one. */
  unreadShownUpTo: 100,
  /** Devices one member may take push notifications on. */
  maxDevices: 10,
  /** Pushes one worker claims at a time, and for how long they are its own. */
  pushBatch: 50,
  pushLeaseMs: 60_000,
  /** How often each process looks for pushes to send (one made in the process goes at once). */
  pushPollMs: 3_000,
  /** A push service away is tried this many times, waiting 10 s, 20 s, 40 s... */
  pushTries: 5,
  pushRetryBaseMs: 10_000,
  /** A push the device cannot take for a day is of no use after. */
  pushTtlSeconds: 24 * 60 * 60,
  /** Members handed a piece of news (a new session, course or recording) per step of the minute job. */
  handOutBatch: 500,
  /** Lines of a community digest email (the rest are on /notifications). */
  digestLines: 20,
  /** The digest goes at this hour of the member's morning (the weekly one on Monday). */
  digestHour: 8,
  /** Members mentioned at most per post or reply, and names tried per mention (up to three words). */
  mentionsPerPost: 5,
  membersPerMention: 3,
} as const;
/** What a notification quotes of a longer text (a course's description, a session's notes). */
export const NOTIFICATION_BODY_MAX = 200;

// Offers and free trials (server/billing/offers-admin.service.ts).
export const OFFERS = {
  nameMax: 80,
  /** A discount of a fixed amount is at most the dearest plan's price. */
  maxAmountOffCents: 149_000,
  /** A repeating discount lasts three years at most. */
  maxMonths: 36,
  maxUses: 100_000,
  /** A free trial is three months at most. */
  maxTrialDays: 90,
} as const;

// Team plans (server/teams/).
export const TEAMS = {
  /** SPEC 9: team pricing is for 5 or more agents. */
  minSeats: 5,
  /** Larger brokerages are set up with the owners (contact). */
  maxSeats: 500,
  nameMax: 80,
  /** Addresses one invitation form takes. */
  invitesAtOnce: 20,
  /** An invitation link works this long after it is mailed. */
  invitationTtlMs: 14 * 24 * 60 * 60 * 1000,
  /** An owner's offer to one brokerage stands this many days at most (30 by default). */
  quoteMaxDays: 90,
  quoteDefaultDays: 30,
  /** Agents on a page of the broker's team page. */
  agentsPerPage: 20,
  /** Invitations still waiting, shown on the broker's page (the latest). */
  invitationsShown: 50,
} as const;

// Mail to an address someone typed (docs/security.md, 'Mail to typed addresses'): limited per sender
// and per recipient, so no one uses the site to mail strangers in bulk or to flood one inbox.
export const TYPED_ADDRESS_MAIL = {
  teamInvitations: {
    /** A broker mails twice their team's seats a day (a seat filled again, an agent who lost the mail); more seats, more invitations. */
    perBrokerPerSeat: { max: 2, windowMs: DAY },
    /** Invitations one address receives a day, from every team together. */
    perRecipient: { max: 3, windowMs: DAY },
    /** The same team's invitation to the same address goes again only after this (its link still works meanwhile). */
    sameAgainAfterMs: DAY,
  },
  /** Owners' team offers, answering brokerages' contact messages. */
  teamOffers: { perStaff: { max: 20, windowMs: DAY }, perRecipient: { max: 2, windowMs: DAY } },
  /** The contact form's acknowledgement to the address given, from every client address together (per sender: CONTACT_LIMIT). */
  contactAnswers: { perRecipient: { max: 10, windowMs: DAY } },
} as const;
