// A page that failed on the server's side says why and how to quote it: the error page marks its
// heading, its text and its reference with these attributes, and the server fills them in
// (server/pages/pages.plugin.ts), since the page itself only learns "an error" in production.
export const FAILURE_ATTRIBUTES = {
  heading: 'data-failure-heading',
  detail: 'data-failure-detail',
  reference: 'data-failure-reference',
} as const;

/** The heading of a page that could not be made because something the site depends on is away. */
export const NEIGHBOUR_AWAY_HEADING = 'Back in a moment';
