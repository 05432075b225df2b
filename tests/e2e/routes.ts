/** The public screens of the route table (SPEC 2), for tests that visit every page. */
export const PUBLIC_PAGES = [
  '/',
  '/courses',
  '/courses/first-90-days',
  '/podcast',
  '/podcast/episodes',
  '/podcast/episodes/ep-s2e04',
  '/resources',
  '/community',
  '/pricing',
  '/login',
  '/signup',
  '/about',
  '/contact',
  '/help',
  '/privacy-policy',
  '/terms-of-service',
];
