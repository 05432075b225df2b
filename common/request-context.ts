import { createContext } from 'react-router';
import type { AccountService } from './account.contract.ts';
import type { AuditService, MembersService, MessagesService, StaffService } from './admin.contract.ts';
import type { AuthService, LoginInput, RegisterInput, StaffLoginInput } from './auth.contract.ts';
import type { BillingAdminService, BillingService } from './billing.contract.ts';
import type { BroadcastsService } from './broadcasts.contract.ts';
import type { OffersAdminService, OffersService } from './offers.contract.ts';
import type { TeamsAdminService, TeamsService } from './teams.contract.ts';
import type { CoachingAdminService, CoachingService } from './coaching.contract.ts';
import type { OneOnOneCoachService, OneOnOneService } from './one-on-one.contract.ts';
import type { GoalsService } from './goals.contract.ts';
import type { LicenceService } from './licence.contract.ts';
import type { InsightsService } from './insights.contract.ts';
import type { LifecycleService } from './lifecycle.contract.ts';
import type { NotificationsService } from './notifications.contract.ts';
import type { RecommendationsService } from './recommendations.contract.ts';
import type { CommunityModerationService, CommunityService } from './community.contract.ts';
import type { TwoFactorService } from './two-factor.contract.ts';
import type { ContactService } from './contact.contract.ts';
import type { ContentService } from './content.contract.ts';
import type { CourseAuthoringService, CoursesService } from './courses.contract.ts';
import type { FilesService } from './files.contract.ts';
import type { LearningService } from './learning.contract.ts';
import type { QuizAuthoringService, QuizzesService } from './quizzes.contract.ts';
import type { PodcastAuthoringService, PodcastService } from './podcast.contract.ts';
import type { ResourceAuthoringService, ResourcesService } from './resources.contract.ts';
import type { StatsService } from './stats.contract.ts';
import type { SignedInMember, Viewer } from './viewer.ts';

// Where pages meet the server: the server fills these per request (server/pages/pages.plugin.ts)
// and route loaders and actions read them. Imported through the package import '#request-context'
// so the built pages and the server hold the very same context tokens.

/** Every feature service, called in process by page loaders and actions and by the API routes. */
export interface Services {
  auth: AuthService;
  account: AccountService;
  billing: BillingService;
  billingAdmin: BillingAdminService;
  offers: OffersService;
  offersAdmin: OffersAdminService;
  teams: TeamsService;
  teamsAdmin: TeamsAdminService;
  coaching: CoachingService;
  coachingAdmin: CoachingAdminService;
  broadcasts: BroadcastsService;
  oneOnOne: OneOnOneService;
  oneOnOneCoach: OneOnOneCoachService;
  goals: GoalsService;
  licence: LicenceService;
  insights: InsightsService;
  lifecycle: LifecycleService;
  notifications: NotificationsService;
  recommendations: RecommendationsService;
  courses: CoursesService;
  courseAuthoring: CourseAuthoringService;
  learning: LearningService;
  quizzes: QuizzesService;
  quizAuthoring: QuizAuthoringService;
  content: ContentService;
  podcast: PodcastService;
  podcastAuthoring: PodcastAuthoringService;
  resources: ResourcesService;
  resourceAuthoring: ResourceAuthoringService;
  community: CommunityService;
  communityModeration: CommunityModerationService;
  twoFactor: TwoFactorService;
  contact: ContactService;
  stats: StatsService;
  files: FilesService;
  members: MembersService;
  messages: MessagesService;
  audit: AuditService;
  staff: StaffService;
}

export interface FlashMessage {
  type: 'success' | 'error' | 'info';
  message: string;
}

/** What only the page's own request can do: start and end the session in its cookie, flash a toast. */
export interface PageSession {
  /** Each returns the member now signed in, for the rest of this request. */
  signUp(input: RegisterInput): Promise<SignedInMember>;
  signIn(input: LoginInput): Promise<SignedInMember>;
  signOut(): Promise<void>;
  staffSignIn(input: StaffLoginInput): Promise<void>;
  staffSignOut(): Promise<void>;
  /** A message for the next page this browser renders (a toast after a redirect). */
  flash(message: FlashMessage): void;
  /** The message flashed by the previous request, once. */
  takeFlash(): FlashMessage | null;
}

export const servicesContext = createContext<Services>();
export const viewerContext = createContext<Viewer>();
export const pageSessionContext = createContext<PageSession>();
/** The nonce this page's inline scripts carry; the response's Content-Security-Policy names it. */
export const cspNonceContext = createContext<string>();

/** The key every change to which discussions the community lists, or how many, is announced under (migration 0043). */
export const COMMUNITY_LIST_KEY = 'feed';
/**
 * Set on a member's page that is kept (the dashboard, server/pages/pages.plugin.ts): its loader names
 * the community discussions the page shows, and COMMUNITY_LIST_KEY for a list or a count. The page is
 * then kept while those hold, not while nothing at all changes in the community. A page that names
 * none is kept while the whole community holds.
 */
export const keptPageDiscussionsContext = createContext<Set<string> | null>(null);
