import { useRef, type ReactNode } from 'react';
import { promptInstall } from '../../lib/service-worker.ts';

type Platform = 'ios' | 'android';

/** How to install the site as an app where the browser cannot do it for the member. */
const STEPS: Record<Platform, { title: string; steps: string[] }> = {
  ios: {
    title: 'Install on iPhone or iPad',
    steps: ['Open this site in Safari.', 'Tap the Share button (the square with an arrow).', "Choose 'Add to Home Screen', then 'Add'."],
  },
  android: {
    title: 'Install on Android',
    steps: ['Open this site in Chrome.', 'Tap the menu (⋮) at the top right.', "Choose 'Install app' or 'Add to Home screen'."],
  },
};

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
  const dialog = useRef<HTMLDialogElement>(null);
  if (storeUrl && /^https:\/\//.test(storeUrl)) {
    return (
      <a href={storeUrl} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  }
  const { title, steps } = STEPS[platform];
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={async () => {
          if (!(await promptInstall())) dialog.current?.showModal();
        }}
      >
        {children}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`install-${platform}-title`}
        className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-left text-gray-800 backdrop:bg-black/60"
      >
        <h2 id={`install-${platform}-title`} className="text-lg font-bold text-gray-900">
          {title}
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="mt-3 text-sm text-gray-600">The app opens full screen from your home screen, and pages you visited open offline.</p>
        <form method="dialog" className="mt-5 text-right">
          <button type="submit" className="rounded-lg bg-brand-800 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
            Got it
          </button>
        </form>
      </dialog>
    </>
  );
}
