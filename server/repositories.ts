import type { Database, DatabaseHandle, DatabaseOrTransaction } from '../db/client.ts';
import { createAccountTokensRepository } from './accounts/account-tokens.repository.ts';
import { createAuditRepository } from './audit/audit.repository.ts';
import { createBillingRepository } from './billing/billing.repository.ts';
import { createCommunityRepository } from './community/community.repository.ts';
import { createBroadcastsRepository } from './broadcasts/broadcasts.repository.ts';
import { createContactRepository } from './contact/contact.repository.ts';
import { createContentRepository } from './content/content.repository.ts';
import { createCoursesRepository } from './courses/courses.repository.ts';
import { createFilesRepository } from './files/files.repository.ts';
import { createLearningRepository } from './learning/learning.repository.ts';
import { createOutboxRepository } from './mail/outbox.repository.ts';
import { createMembersRepository } from './members/members.repository.ts';
import { createPodcastRepository } from './podcast/podcast.repository.ts';
import { createResourcesRepository } from './resources/resources.repository.ts';
import { createSiteSettingsRepository } from './staff/site-settings.repository.ts';
import { createStaffRepository } from './staff/staff.repository.ts';
import { isUniqueViolation, violatedConstraint } from '../db/database-errors.ts';
import { createCoachingRepository } from './coaching/coaching.repository.ts';
import { createOneOnOneRepository } from './one-on-one/one-on-one.repository.ts';
import { createGoalsRepository } from './goals/goals.repository.ts';
import { createTipsRepository } from './tips/tips.repository.ts';
import { createNotificationsRepository } from './notifications/notifications.repository.ts';
import { createOffersRepository } from './billing/offers.repository.ts';
import { createTeamsRepository } from './teams/teams.repository.ts';
import { createQuizzesRepository } from './quizzes/quizzes.repository.ts';
import { createLicenceRepository } from './licence/licence.repository.ts';
import { createLifecycleRepository } from './lifecycle/lifecycle.repository.ts';
import { createInsightsRepository, createRetentionRepository, createRevenueRepository } from './insights/insights.repository.ts';

/** Every feature's repository, bound to the database or to one transaction. */
function createRepositories(db: DatabaseOrTransaction) {
  return {
    accountTokens: createAccountTokensRepository(db),
    audit: createAuditRepository(db),
    billing: createBillingRepository(db),
    broadcasts: createBroadcastsRepository(db),
    coaching: createCoachingRepository(db),
    oneOnOne: createOneOnOneRepository(db),
    goals: createGoalsRepository(db),
    tips: createTipsRepository(db),
    community: createCommunityRepository(db),
    contact: createContactRepository(db),
    content: createContentRepository(db),
    courses: createCoursesRepository(db),
    files: createFilesRepository(db),
    learning: createLearningRepository(db),
    licence: createLicenceRepository(db),
    lifecycle: createLifecycleRepository(db),
    insights: createInsightsRepository(db),
    revenue: createRevenueRepository(db),
    retention: createRetentionRepository(db),
    quizzes: createQuizzesRepository(db),
    members: createMembersRepository(db),
    notifications: createNotificationsRepository(db),
    offers: createOffersRepository(db),
    teams: createTeamsRepository(db),
    outbox: createOutboxRepository(db),
    podcast: createPodcastRepository(db),
    resources: createResourcesRepository(db),
    siteSettings: createSiteSettingsRepository(db),
    staff: createStaffRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** The repositories, plus `transaction` for rules that change several tables together (a change and its audit entry). */
export interface DataAccess extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Whether a failed change was the database refusing a duplicate (an address taken meanwhile by another request). */
  isDuplicate(error: unknown): boolean;
  /** The constraint (a unique index, an exclusion) a failed change broke, if that is why it failed. */
  violatedConstraint(error: unknown): string | undefined;
}

/** What a scheduled job needs of the database beyond its DataAccess: to run in one process at a time. */
export type RunsAlone = Pick<DatabaseHandle, 'runAlone'>;

export function createDataAccess(db: Database): DataAccess {
  return {
    ...createRepositories(db),
    transaction: (work) => db.transaction((tx) => work(createRepositories(tx))),
    isDuplicate: isUniqueViolation,
    violatedConstraint,
  };
}
