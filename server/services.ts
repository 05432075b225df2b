import type { Redis } from 'ioredis';
import type { Services } from '../common/request-context.ts';
import type { Database } from '../db/client.ts';
import { createAccountService } from './accounts/accounts.service.ts';
import { createAuditService } from './audit/audit.service.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createBillingService, type ServerBillingService } from './billing/billing.service.ts';
import type { StripeGateway } from './billing/stripe-gateway.ts';
import { createCommunityModerationService } from './community/community-moderation.service.ts';
import { createCommunityService } from './community/community.service.ts';
import { createCommunityNotices } from './community/community-notices.ts';
import type { Config } from './config.ts';
import { createContactService, createMessagesService } from './contact/contact.service.ts';
import { createContentService } from './content/content.service.ts';
import { createCourseAuthoringService } from './courses/course-authoring.service.ts';
import { createCoursesService } from './courses/courses.service.ts';
import type { DataVersion } from './cache/data-version.ts';
import {
  VersionedMemo,
  withCommunityReadsInMemory,
  withMemberReadsInMemory,
  withPublicReadsInMemory,
  withReadsAfterWritesFresh,
} from './cache/in-memory-reads.ts';
import { createFileDeliveryService, type FileDeliveryService } from './files/file-delivery.service.ts';
import { createFileLibraryService } from './files/file-library.service.ts';
import type { FileStorage } from './files/storage.ts';
import { AttemptLimiter } from './http/attempt-limiter.ts';
import { createLearningService } from './learning/learning.service.ts';
import { createQuizzesService } from './quizzes/quizzes.service.ts';
import { createQuizAuthoringService } from './quizzes/quiz-authoring.service.ts';
import type { Mailer } from './mail/mailer.ts';
import { createMembersService } from './members/members.service.ts';
import { createPodcastService } from './podcast/podcast.service.ts';
import { createDataAccess } from './repositories.ts';
import { createResourcesService } from './resources/resources.service.ts';
import type { SessionService } from './sessions/session.service.ts';
import { createStaffService } from './staff/staff.service.ts';
import { createTwoFactorService } from './staff/two-factor.service.ts';
import { createStatsService } from './stats/stats.service.ts';
import { CACHE_BOUNDS } from '../common/limits.ts';
import { createBillingAdminService } from './billing/billing-admin.service.ts';
import { createOffersAdminService } from './billing/offers-admin.service.ts';
import { createOffersService } from './billing/offers.service.ts';
import { createTeamsService } from './teams/teams.service.ts';
import { createTeamsAdminService } from './teams/teams-admin.service.ts';
import { createResourceAuthoringService } from './resources/resource-authoring.service.ts';
import { createPodcastAuthoringService } from './podcast/podcast-authoring.service.ts';
import { createCoachingService } from './coaching/coaching.service.ts';
import { createBroadcastsService } from './broadcasts/broadcasts.service.ts';
import { createCoachingAdminService } from './coaching/coaching-admin.service.ts';
import { createOneOnOneService } from './one-on-one/one-on-one.service.ts';
import { createGoalsService } from './goals/goals.service.ts';
import { createLicenceService, type ServerLicenceService } from './licence/licence.service.ts';
import { createLifecycleService } from './lifecycle/lifecycle.service.ts';
import type { LifecycleService } from '../common/lifecycle.contract.ts';
import { createInsightsService, type ServerInsightsService } from './insights/insights.service.ts';
import { createRecommendationsService } from './recommendations/recommendations.service.ts';
import { createOneOnOneCoachService } from './one-on-one/one-on-one-coach.service.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import type { Notifier } from './notifications/notifier.ts';
import type { PushSettings } from './notifications/push-sender.ts';

/** The services the API routes call; pages get the same objects through the React Router context. */
export interface ServerServices extends Services {
  fileDelivery: FileDeliveryService;
  billing: ServerBillingService;
  licence: ServerLicenceService;
  lifecycle: LifecycleService;
  insights: ServerInsightsService;
}

/** Builds every feature service once per process, wired to one database, file store and limiter store. */
export function createServices(deps: {
  db: Database;
  config: Config;
  storage: FileStorage;
  sessions: SessionService;
  redis: Redis | undefined;
  mailer: Mailer;
  /** Tells members of what concerns them: the bell, email and push, as each chose. */
  notifier: Notifier;
  /** Web push, when the site has its keys. */
  push: PushSettings | undefined;
  /** Stripe, when billing is on. */
  stripe: StripeGateway | undefined;
  log: { warn(object: object, message: string): void };
  /** Public catalogue reads are answered from memory while it holds. */
  dataVersion: DataVersion;
  /** And each member's own reads (enrolments, certificates, subscription) while this holds. */
  memberDataVersion: DataVersion;
  /** Replies to members' own posts, and the community's first pages, while this holds. */
  communityDataVersion: DataVersion;
}): ServerServices {
  const { mailer, sessions, dataVersion, memberDataVersion, communityDataVersion } = deps;
  const publicReads = withPublicReadsInMemory(createDataAccess(deps.db), new VersionedMemo([dataVersion], CACHE_BOUNDS.catalogue));
  const communityReads = withCommunityReadsInMemory(
    publicReads,
    new VersionedMemo([communityDataVersion], CACHE_BOUNDS.communityPages),
    new VersionedMemo([communityDataVersion], CACHE_BOUNDS.likedDiscussions),
  );
  const data = withReadsAfterWritesFresh(
    withMemberReadsInMemory(communityReads, {
      // Enrolments count the course's lessons: the catalogue changing makes them stale too.
      own: new VersionedMemo([dataVersion, memberDataVersion], CACHE_BOUNDS.memberReads),
      // Replies to a member's posts are community data.
      repliesToOwnPosts: new VersionedMemo([memberDataVersion, communityDataVersion], CACHE_BOUNDS.repliesToOwnPosts),
    }),
    [dataVersion, memberDataVersion, communityDataVersion],
    deps.log,
  );
  const limiter = new AttemptLimiter(`${deps.config.redisKeyPrefix}:limit`, deps.redis);
  const courses = createCoursesService(data);
  const learning = createLearningService({ data, courses, mailer });
  const licence = createLicenceService({ data, storage: deps.storage, mailer, learning, limiter });
  const billing = createBillingService({ data, gateway: deps.stripe, mailer, limiter, log: deps.log });
  const billingAdmin = createBillingAdminService({ data, gateway: deps.stripe, mailer, log: deps.log });
  return {
    auth: createAuthService({ data, sessions, limiter, mailer }),
    account: createAccountService({ data, sessions, limiter, mailer, billing }),
    billing,
    billingAdmin,
    offers: createOffersService(data, limiter),
    offersAdmin: createOffersAdminService({ data, gateway: deps.stripe, mailer, log: deps.log }),
    teams: createTeamsService({ data, gateway: deps.stripe, mailer, limiter, log: deps.log, learning, licence }),
    teamsAdmin: createTeamsAdminService({ data, mailer }),
    coaching: createCoachingService({ data, mailer }),
    coachingAdmin: createCoachingAdminService({ data, mailer, storage: deps.storage }),
    broadcasts: createBroadcastsService({ data, mailer }),
    oneOnOne: createOneOnOneService({ data, mailer }),
    oneOnOneCoach: createOneOnOneCoachService({ data }),
    goals: createGoalsService({ data }),
    licence,
    lifecycle: createLifecycleService(data, mailer),
    insights: createInsightsService(data),
    notifications: createNotificationsService({ data, push: deps.push }),
    recommendations: createRecommendationsService({ data }),
    courses,
    courseAuthoring: createCourseAuthoringService(data, learning, deps.storage),
    learning,
    quizzes: createQuizzesService({ data, courses, learning, mailer }),
    quizAuthoring: createQuizAuthoringService(data),
    content: createContentService(data),
    podcast: createPodcastService(data),
    podcastAuthoring: createPodcastAuthoringService(data),
    resources: createResourcesService(data),
    resourceAuthoring: createResourceAuthoringService(data),
    community: createCommunityService({
      data,
      limiter,
      notifier: deps.notifier,
      notices: createCommunityNotices({ notifier: deps.notifier, mailer }),
    }),
    communityModeration: createCommunityModerationService(data),
    contact: createContactService({ data, limiter, mailer, staffNotify: deps.config.mail.staffNotify }),
    stats: createStatsService(data),
    files: createFileLibraryService({ data, storage: deps.storage, uploadMaxBytes: deps.config.uploadMaxBytes }),
    fileDelivery: createFileDeliveryService({ data, courses }),
    members: createMembersService(data, learning),
    messages: createMessagesService(data),
    audit: createAuditService(data.audit),
    staff: createStaffService({ storageName: deps.storage.displayName, data, mailer, limiter, sessions }),
    twoFactor: createTwoFactorService({ data, limiter, mailer }),
  };
}
