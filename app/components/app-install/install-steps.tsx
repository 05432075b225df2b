import { useEffect, useRef } from 'react';

export type Platform = 'ios' | 'android';

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
 * The steps, as a modal dialog that opens at once; loaded only when a member asks for them. On a
 * visitor's plain page it is written into the page closed, after its button, which
 * public/page-enhancer.js has open it.
 */
export default function InstallSteps({ platform, onClose }: { platform: Platform; onClose?: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  const { title, steps } = STEPS[platform];
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
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
  );
}
