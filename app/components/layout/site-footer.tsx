import { Link } from 'react-router';
import type { ContentFields } from '../../../common/content-sections.ts';
import { InstallAppButton } from '../app-install/install-app.tsx';
import { EditableText } from '../editable/editable-text.tsx';
import { Logo } from './site-nav.tsx';

// SPEC 2 Shared layout: footer link groups.
const PLATFORM_LINKS = [
  { to: '/courses', label: 'Courses' },
  { to: '/podcast', label: 'Podcast' },
  { to: '/community', label: 'Community' },
  { to: '/pricing', label: 'Pricing' },
];
const COMPANY_LINKS = [
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-service', label: 'Terms of Service' },
];

function FooterGroup({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-gold-400">{title}</h2>
      <ul className="mt-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-sm text-gray-300 hover:text-white">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

const APP_BUTTON = 'block w-full rounded-lg border border-gray-600 px-4 py-3 text-center text-sm text-gray-200 hover:border-gold-400';

/** The footer; its texts come with the root loader's data (missing only on an error page). */
export function SiteFooter({
  footerText,
  mobileApp,
}: {
  footerText?: ContentFields<'footer_text'>;
  mobileApp?: ContentFields<'mobile_app'>;
}) {
  const show = (field: 'copyright' | 'tagline') => <EditableText section="footer_text" field={field} value={footerText?.[field] ?? ''} />;
  return (
    <footer className="bg-gray-950 text-gray-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <div className="rounded-lg bg-white/95 p-2 inline-block">
            <Logo />
          </div>
          <p className="mt-4 text-sm text-gray-400">{show('tagline')}</p>
        </div>
        <FooterGroup title="Platform" links={PLATFORM_LINKS} />
        <FooterGroup title="Company" links={COMPANY_LINKS} />
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-gold-400">Download App</h2>
          <div className="mt-4 space-y-3">
            {/* Issue 16: unlike SPEC 2's links that led nowhere, these install the app or open its store page. */}
            <InstallAppButton platform="ios" storeUrl={mobileApp?.ios_url} className={APP_BUTTON}>
              Download on iOS
            </InstallAppButton>
            <InstallAppButton platform="android" storeUrl={mobileApp?.android_url} className={APP_BUTTON}>
              Get it on Android
            </InstallAppButton>
          </div>
        </div>
      </div>
      <div className="border-t border-gray-800 py-6 text-center text-sm text-gray-400">{show('copyright')}</div>
    </footer>
  );
}
