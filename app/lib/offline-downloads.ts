import { maySaveOffline } from '../../common/policies.ts';
import type { Tier } from '../../common/tiers.ts';
import { DOWNLOADS_CACHE } from './service-worker.ts';

// 'Save for offline': a member keeps the downloads their plan includes on the device, in the
// cache the service worker answers from when there is no connection (public/sw.js).

/** Only the site's own files can be kept; an outside link is the other site's. */
export const canSaveOffline = (url: string | null): url is string => url !== null && url.startsWith('/api/');

const available = () => typeof window !== 'undefined' && 'caches' in window;
const absolute = (url: string) => new URL(url, window.location.origin).href;

/** The addresses (paths) saved on this device. */
async function savedDownloads(): Promise<Set<string>> {
  if (!available()) return new Set();
  const keys = await (await caches.open(DOWNLOADS_CACHE)).keys();
  return new Set(keys.map((request) => new URL(request.url).pathname));
}

export async function saveDownload(url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The download answered ${response.status}`);
  await (await caches.open(DOWNLOADS_CACHE)).put(absolute(url), response);
}

export async function removeDownload(url: string): Promise<void> {
  if (available()) await (await caches.open(DOWNLOADS_CACHE)).delete(absolute(url));
}

/** Removes every saved download the member's plan no longer includes (`allowed`: the download addresses they may open now). */
export async function pruneDownloads(allowed: Set<string>): Promise<Set<string>> {
  const saved = await savedDownloads();
  await Promise.all([...saved].filter((path) => !allowed.has(path)).map((path) => removeDownload(path)));
  return new Set([...saved].filter((path) => allowed.has(path)));
}

/**
 * On any page: if anything is saved, asks which downloads the member may open now and removes the
 * rest (a downgrade, a cancelled plan, a resource staff moved to a higher tier).
 */
export async function pruneDownloadsForViewer(tier: Tier | null): Promise<void> {
  if (!available() || (await savedDownloads()).size === 0) return;
  if (tier === null || !maySaveOffline({ membershipTier: tier })) {
    await caches.delete(DOWNLOADS_CACHE);
    return;
  }
  const response = await fetch('/api/resources', { credentials: 'same-origin' }).catch(() => null);
  if (!response?.ok) return;
  const resources = (await response.json()) as { download_url: string | null }[];
  await pruneDownloads(new Set(resources.map((resource) => resource.download_url).filter(canSaveOffline)));
}
