import { BRAND_NAME } from './brand.ts';

/** The show's page, for 'View All Episodes on Spotify', until staff set it (content section podcast_show). */
export const SPOTIFY_SHOW_URL = 'https://open.spotify.com/search/RealtyPocket%20Coaching%20Podcast/podcasts';

// SPEC 3 "Content sections and their fields", plus podcast_labels (SPEC 2 Podcast).
export const CONTENT_SECTIONS = {
  homepage_hero: {
    label: 'Homepage - Hero Section',
    fields: ['headline', 'subheadline', 'cta_text'],
  },
  homepage_features: {
    label: 'Homepage - Features',
    fields: ['feature1_title', 'feature1_desc', 'feature2_title', 'feature2_desc', 'feature3_title', 'feature3_desc'],
  },
  about_mission: {
    label: 'About - Mission',
    fields: ['title', 'content', 'founder_name', 'founder_title'],
  },
  contact_info: {
    label: 'Contact Information',
    fields: ['phone', 'email', 'address', 'hours'],
  },
  footer_text: {
    label: 'Footer',
    fields: ['copyright', 'tagline'],
  },
  podcast_labels: {
    label: 'Podcast - Labels',
    fields: ['page_title', 'page_subtitle', 'episode1_label', 'episode2_label'],
  },
  // Not in the spec: the marketing numbers, one place for every page. Left empty, members and
  // courses show the real counts.
  site_numbers: {
    label: 'Site - Numbers',
    fields: ['members', 'courses', 'rating', 'daily_posts', 'years'],
  },
  // Not in the spec: where 'View All Episodes on Spotify' leads, set by staff.
  podcast_show: {
    label: 'Podcast - Show',
    fields: ['spotify_show_url'],
  },
  // Not in the spec: the Help Center (/help). Each topic is questions and answers as blocks.
  help_center: {
    label: 'Help Center',
    fields: ['intro', 'account_content', 'billing_content', 'courses_content', 'app_content'],
  },
  // Not in the spec: photos of the founder (About) and of the three members quoted on the home page.
  site_photos: {
    label: 'Site - Photos',
    fields: ['founder_photo', 'testimonial1_photo', 'testimonial2_photo', 'testimonial3_photo'],
  },
  // Not in the spec: the app's store pages. Left empty, the buttons install the web app instead.
  mobile_app: {
    label: 'Mobile App - Store Links',
    fields: ['ios_url', 'android_url'],
  },
} as const satisfies Record<string, { label: string; fields: readonly string[] }>;

export type ContentSectionKey = keyof typeof CONTENT_SECTIONS;
export type ContentFields<K extends ContentSectionKey> = Record<(typeof CONTENT_SECTIONS)[K]['fields'][number], string>;
export type ContentData = Record<string, string>;

export const CONTENT_SECTION_KEYS = Object.keys(CONTENT_SECTIONS) as ContentSectionKey[];

export function isContentSectionKey(value: string): value is ContentSectionKey {
  return Object.hasOwn(CONTENT_SECTIONS, value);
}

/** SPEC 3: the content editor labels a field by its name with underscores turned into spaces. */
export function fieldLabel(field: string): string {
  return field.replaceAll('_', ' ');
}

/** SPEC 3: fields whose name contains 'desc' or 'content' are multi-line (4 rows). */
export function isMultilineField(field: string): boolean {
  return field.includes('desc') || field.includes('content');
}

// The texts each section shows until an administrator edits it (SPEC 2, 4 and 9 defaults).
export const CONTENT_DEFAULTS: { [K in ContentSectionKey]: ContentFields<K> } = {
  homepage_hero: {
    headline: 'Transform Your Real Estate Career From Your Pocket',
    subheadline: 'Expert-led courses, coaching, and community designed for ambitious real estate professionals',
    cta_text: 'Download Now & Start Learning',
  },
  homepage_features: {
    feature1_title: 'Video Courses',
    feature1_desc:
      'Self-paced courses on prospecting, listings, negotiation and business planning, with progress tracking, certificates and lifetime access.',
    feature2_title: 'Daily & Weekly Tips',
    feature2_desc:
      'Short, practical tips on scripts, follow-up and market trends that you can put to work before your first appointment of the day.',
    feature3_title: 'Live Coaching',
    feature3_desc:
      'Live and group coaching sessions with seasoned agents and lenders, with goal tracking and reminders that keep you accountable.',
  },
  about_mission: {
    title: 'Our Mission',
    content: `${BRAND_NAME} exists to give every real estate professional, from the newly licensed agent to the seasoned broker, the training, coaching and community they need to build a career that lasts. We turn years of hard-won industry experience into practical lessons you can use from your phone, between showings and after closings.`,
    founder_name: 'Michael Reyes',
    founder_title: 'Founder, mortgage expert and veteran lending specialist with more than 16 years of experience',
  },
  contact_info: {
    phone: '(512) 555-0142',
    email: 'support@realtypocket.com',
    address: '600 Congress Avenue, Suite 1400, Austin, TX 78701',
    hours: 'Monday - Friday, 9am - 5pm CST',
  },
  footer_text: {
    copyright: `© 2025 ${BRAND_NAME}. All rights reserved.`,
    tagline: 'Transform Your Real Estate Career From Your Pocket',
  },
  podcast_labels: {
    page_title: 'Latest Episodes',
    page_subtitle: 'Listen to our podcast episodes on Spotify',
    episode1_label: 'Latest Episode',
    episode2_label: 'Previous Episode',
  },
  site_numbers: {
    members: '',
    courses: '',
    rating: '4.9',
    daily_posts: '50+',
    years: '16+',
  },
  podcast_show: {
    spotify_show_url: SPOTIFY_SHOW_URL,
  },
  // The topics' own answers are in common/help-center.ts: they show while a topic is left empty.
  help_center: {
    intro: 'Answers to the questions members ask most about their account, billing, courses and the app.',
    account_content: '',
    billing_content: '',
    courses_content: '',
    app_content: '',
  },
  mobile_app: {
    ios_url: '',
    android_url: '',
  },
  site_photos: {
    founder_photo: '',
    testimonial1_photo: '',
    testimonial2_photo: '',
    testimonial3_photo: '',
  },
};

/**
 * SPEC 4: a loaded section replaces the defaults only when it is non-empty; a field that is
 * empty or missing keeps its default.
 */
export function withContentDefaults<K extends ContentSectionKey>(key: K, stored: ContentData | null | undefined): ContentFields<K> {
  const defaults = CONTENT_DEFAULTS[key] as Record<string, string>;
  const merged: Record<string, string> = { ...defaults };
  if (stored) {
    for (const field of CONTENT_SECTIONS[key].fields) {
      const value = stored[field];
      if (typeof value === 'string' && value.trim() !== '') merged[field] = value;
    }
  }
  return merged as ContentFields<K>;
}
