// The installed app (PWA): the service worker (public/sw.js) and the browser's install prompt.
// The cache names are the service worker's.
const PAGES_CACHE = 'pages-v1';
export const DOWNLOADS_CACHE = 'offline-downloads';
const OWNER_KEY = 'offline-owner';

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
}

/** The browser's install prompt, kept from the moment it is offered (Chromium browsers only). */
let installPrompt: InstallPromptEvent | null = null;

/** Shows the browser's own install dialog, if it offered one; false when the member must install by hand. */
export async function promptInstall(): Promise<boolean> {
  if (!installPrompt) return false;
  const prompt = installPrompt;
  installPrompt = null;
  await prompt.prompt();
  return true;
}

/** A digest of who is signed in ('' for a visitor), so the device does not keep the address itself. */
async function ownerKey(member: string | null): Promise<string> {
  if (!member) return '';
  if (!window.crypto?.subtle) return 'member';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(member));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

let started = false;

/**
 * Registers the service worker and keeps the install prompt (once), and forgets what a previous
 * member left offline (whenever who is signed in changes). Loaded once the page is up
 * (app/root.tsx): none of it is needed for the first paint.
 */
export function startInstalledApp(member: string | null) {
  void keepOfflineCopiesFor(member);
  if (started) return;
  started = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installPrompt = event as InstallPromptEvent;
  });
  // Not in development, where the files change under the same address.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
}

/**
 * Pages and downloads kept offline belong to whoever was signed in: another person (or a visitor,
 * after signing out) must not open them. Only a digest of who it was is stored.
 */
async function keepOfflineCopiesFor(member: string | null) {
  const now = await ownerKey(member);
  try {
    const before = localStorage.getItem(OWNER_KEY);
    if (before !== null && before !== now && 'caches' in window) {
      await Promise.all([caches.delete(PAGES_CACHE), caches.delete(DOWNLOADS_CACHE)]);
    }
    localStorage.setItem(OWNER_KEY, now);
  } catch {
    // Storage refused (a private window): nothing is kept offline there either.
  }
}
