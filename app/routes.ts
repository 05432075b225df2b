import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// SPEC 2 route table: every public and member screen sits inside the shared site layout;
// the two admin screens stand outside it.
export default [
  layout('components/layout/site-layout.tsx', [
    index('routes/home/home.tsx'),
    route('courses', 'routes/courses/catalogue.tsx'),
    route('courses/:courseId', 'routes/courses/course-detail.tsx'),
    route('podcast', 'routes/podcast/podcast.tsx'),
    route('resources', 'routes/resources/resources.tsx'),
    route('community', 'routes/community/community.tsx'),
    route('pricing', 'routes/pricing/pricing.tsx'),
    route('login', 'routes/auth/login.tsx'),
    route('signup', 'routes/auth/signup.tsx'),
    route('dashboard', 'routes/dashboard/dashboard.tsx'),
    route('privacy-policy', 'routes/legal/privacy-policy.tsx'),
    route('terms-of-service', 'routes/legal/terms-of-service.tsx'),
    route('about', 'routes/about/about.tsx'),
    route('contact', 'routes/contact/contact.tsx'),
    route('certificates/:code', 'routes/certificates/verify.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
  route('admin/login', 'routes/admin/admin-login.tsx'),
  route('admin/dashboard', 'routes/admin/admin-dashboard.tsx'),
] satisfies RouteConfig;
