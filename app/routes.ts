import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// SPEC 2 route table: every public and member screen sits inside the shared site layout;
// the admin screens stand outside it.
export default [
  layout('components/layout/site-layout.tsx', [
    index('routes/home/home.tsx'),
    route('courses', 'routes/courses/catalogue.tsx'),
    route('courses/:courseId', 'routes/courses/course-detail.tsx'),
    route('podcast', 'routes/podcast/podcast.tsx'),
    route('resources', 'routes/resources/resources.tsx'),
    route('community', 'routes/community/community.tsx'),
    route('community/:postId', 'routes/community/post.tsx'),
    route('pricing', 'routes/pricing/pricing.tsx'),
    route('login', 'routes/auth/login.tsx'),
    route('signup', 'routes/auth/signup.tsx'),
    route('dashboard', 'routes/dashboard/dashboard.tsx'),
    route('account', 'routes/account/account.tsx'),
    route('account/billing', 'routes/account/billing.tsx'),
    route('forgot-password', 'routes/account/forgot-password.tsx'),
    route('reset-password', 'routes/account/reset-password.tsx'),
    route('verify-email', 'routes/account/verify-email.tsx'),
    route('confirm-email', 'routes/account/confirm-email.tsx'),
    route('unsubscribe', 'routes/account/unsubscribe.tsx'),
    route('privacy-policy', 'routes/legal/privacy-policy.tsx'),
    route('terms-of-service', 'routes/legal/terms-of-service.tsx'),
    route('about', 'routes/about/about.tsx'),
    route('contact', 'routes/contact/contact.tsx'),
    route('certificates/:code', 'routes/certificates/verify.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
  route('logout', 'routes/auth/logout.ts'),
  route('admin/login', 'routes/admin/admin-login.tsx'),
  route('admin/forgot-password', 'routes/admin/admin-forgot-password.tsx'),
  route('admin/reset-password', 'routes/admin/admin-reset-password.tsx'),
  route('admin/logout', 'routes/admin/admin-logout.ts'),
  route('admin/edit-content', 'routes/admin/edit-content.ts'),
  // Each admin tab is its own URL with its own loader, so the open tab survives a reload; the
  // spec's first tab, Podcasts, is also the dashboard's own page.
  route('admin/dashboard', 'routes/admin/admin-dashboard.tsx', [
    index('routes/admin/tabs/podcasts-tab.tsx', { id: 'admin-dashboard-index' }),
    route('podcasts', 'routes/admin/tabs/podcasts-tab.tsx'),
    route('files', 'routes/admin/tabs/files-tab.tsx'),
    route('courses', 'routes/admin/tabs/courses-tab.tsx'),
    route('courses/:courseId', 'routes/admin/tabs/course-editor.tsx'),
    route('resources', 'routes/admin/tabs/resources-tab.tsx'),
    route('content', 'routes/admin/tabs/content-tab.tsx'),
    route('members', 'routes/admin/tabs/members-tab.tsx'),
    route('staff', 'routes/admin/tabs/staff-tab.tsx'),
    route('community', 'routes/admin/tabs/community-tab.tsx'),
    route('messages', 'routes/admin/tabs/messages-tab.tsx'),
    route('activity', 'routes/admin/tabs/activity-tab.tsx'),
  ]),
] satisfies RouteConfig;
