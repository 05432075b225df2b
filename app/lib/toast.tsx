import { useEffect, useState, type ComponentProps } from 'react';

// The toast library loads after the page is up (when the browser is idle, or at the first toast,
// whichever comes first), so its code is not part of a visitor's first load. Toasts asked for
// before it is there are shown as soon as it is.

type Sonner = typeof import('sonner');
type Kind = 'success' | 'error' | 'info';

const waiting: [Kind, string][] = [];
let show: ((kind: Kind, message: string) => void) | undefined;
let load: (() => void) | undefined;

function notify(kind: Kind, message: string) {
  if (show) show(kind, message);
  else {
    waiting.push([kind, message]);
    load?.();
  }
}

export const toast = {
  success: (message: string) => notify('success', message),
  error: (message: string) => notify('error', message),
  info: (message: string) => notify('info', message),
};

/** The page's toast area (SPEC: top centre), mounted once the library has loaded. */
export function Toaster(props: ComponentProps<Sonner['Toaster']>) {
  const [sonner, setSonner] = useState<Sonner>();
  useEffect(() => {
    let started = false;
    load = () => {
      if (started) return;
      started = true;
      // Offline before it loaded (the installed app opened without a connection): the next toast tries again.
      void import('sonner').then(setSonner, () => {
        started = false;
      });
    };
    if (waiting.length > 0) load();
    const idle = window.requestIdleCallback?.(() => load?.(), { timeout: 3000 }) ?? window.setTimeout(() => load?.(), 1500);
    return () => {
      window.cancelIdleCallback?.(idle);
      window.clearTimeout(idle);
      load = undefined;
    };
  }, []);
  useEffect(() => {
    if (!sonner) return;
    // The library's own area is mounted by now (children's effects run first), so nothing is lost.
    show = (kind, message) => sonner.toast[kind](message);
    for (const [kind, message] of waiting.splice(0)) show(kind, message);
    return () => {
      show = undefined;
    };
  }, [sonner]);
  return sonner ? <sonner.Toaster {...props} /> : null;
}
