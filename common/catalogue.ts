import type { Tier } from './tiers.ts';

// SPEC 2 / 3: the catalogue's fixed vocabularies.
export const COURSE_CATEGORIES = ['sales', 'marketing', 'negotiation', 'specialization', 'business'] as const;
export type CourseCategory = (typeof COURSE_CATEGORIES)[number];

export const RESOURCE_TYPES = ['daily_tip', 'ebook', 'workbook', 'article', 'market_report'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_TYPE_LABEL: Record<ResourceType, string> = {
  daily_tip: 'Daily Tip',
  ebook: 'eBook',
  workbook: 'Workbook',
  article: 'Article',
  market_report: 'Market Report',
};

/** SPEC 3 Course, as the API returns it. lesson_count is derived from the stored lessons. */
export interface Course {
  id: string;
  title: string;
  description: string;
  category: CourseCategory;
  tier: Tier;
  thumbnail: string;
  duration: string;
  lesson_count: number;
  instructor: string;
}

/** SPEC 3 Lesson. video_url is only sent to an entitled member (null otherwise or when absent). */
export interface Lesson {
  id: string;
  title: string;
  duration: string;
  description: string;
  video_url: string | null;
  /** true when the lesson has a video, whether or not this client may see it */
  has_video: boolean;
}

/** SPEC 3 Podcast episode (public shape). */
export interface PodcastEpisode {
  id: string;
  title: string;
  description: string;
  thumbnail: string;
  season: number;
  episode: number;
  duration: string;
  spotify_url: string;
  published_at: string;
}

/** SPEC 3 Podcast episode (admin shape). */
export interface AdminPodcastEpisode {
  id: string;
  title: string;
  spotify_url: string;
  audio_url: string;
  description: string;
  duration: string;
}

/** SPEC 3 Resource. download_url is only sent to an entitled member. */
export interface Resource {
  id: string;
  title: string;
  description: string;
  resource_type: ResourceType;
  tier_required: Tier;
  download_url: string | null;
  /** true when the resource has a download, whether or not this client may see it */
  has_download: boolean;
}

/** SPEC 3 Community post. content is null for a visitor past the preview. */
export interface CommunityPost {
  id: string;
  user_name: string;
  title: string;
  content: string | null;
  created_at: string;
  likes_count: number;
  replies_count: number;
}
