import { Outlet } from 'react-router';
import { useRootData } from '../../root.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteNav } from './site-nav.tsx';

/** SPEC 2 Shared layout: fixed nav, the page, the footer. */
export default function SiteLayout() {
  const root = useRootData();
  const viewer = root?.viewer ?? { member: null, staff: null };
  return (
    <div className="flex min-h-screen flex-col">
      <SiteNav viewer={viewer} />
      <main id="main" className="flex-1 pt-16">
        <Outlet />
      </main>
      <SiteFooter footerText={root?.footerText ?? {}} />
    </div>
  );
}
