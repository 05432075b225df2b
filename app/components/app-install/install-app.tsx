import { lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { PlainPage } from '../../lib/plain-page.tsx';
import type { Platform } from './install-steps.tsx';

// The steps and the install prompt load when asked for: every page shows these buttons.
const InstallSteps = lazy(() => import('./install-steps.tsx'));

/**
 * 'Download on iOS', 'Get it on Android', and the dashboard's app buttons: the store's page when
 * staff set one (content section mobile_app); otherwise the browser's install prompt where it has
 * one, and the steps to install by hand where it has not.
 */
export function InstallAppButton({
  platform,
  storeUrl,
  className,
  children,
}: {
  platform: Platform;
  storeUrl: string | undefined;
  className: string;
  children: ReactNode;
}) {
  const [showSteps, setShowSteps] = useState(false);
  // A visitor's plain page has the steps in the page, after the button, for public/page-enhancer.js to open.
  const plainPage = useContext(PlainPage);
  if (storeUrl && /^https:\/\//.test(storeUrl)) {
    return (
      <a href={storeUrl} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  }
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={async () => {
          const { promptInstall } = await import('../../lib/service-worker.ts');
          if (!(await promptInstall())) setShowSteps(true);
        }}
      >
        {children}
      </button>
      {plainPage ? (
        <plainPage.InstallSteps platform={platform} />
      ) : (
        showSteps && (
          <Suspense fallback={null}>
            <InstallSteps platform={platform} onClose={() => setShowSteps(false)} />
          </Suspense>
        )
      )}
    </>
  );
}
