// The site's service worker: the pages a member has visited open without a connection, and the
// downloads they saved for offline use ('Save for offline' on Resources) open too; it shows the
// member's push notifications. Registered by
// app/lib/service-worker.ts. Plain JavaScript: the browser loads this file as it is.

const VERSION = 'v1';
/** Pages and their route data as last seen, for offline use. Emptied when someone signs out. */
const PAGES = `pages-${VERSION}`;
/** The build's hashed files, images and fonts: they never change under the same address. */
const ASSETS = `assets-${VERSION}`;
/** What a member chose to keep offline; app/lib/offline-downloads.ts writes and prunes it. */
const DOWNLOADS = 'offline-downloads';
const OFFLINE_PAGE = '/offline.html';
const KEEP = [PAGES, ASSETS, DOWNLOADS];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(PAGES)
      .then((cache) => cache.addAll([OFFLINE_PAGE, '/icons/icon-192.png']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => !KEEP.includes(name)).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/**
 * Signing out leaves nothing of the member on the device: their pages, their saved downloads, and
 * their push notifications (the push service then tells the site this device is gone).
 */
function forgetMember() {
  const stopPush = self.registration.pushManager
    .getSubscription()
    .then((subscription) => subscription && subscription.unsubscribe())
    .catch(() => undefined);
  return Promise.all([caches.delete(PAGES), caches.delete(DOWNLOADS), stopPush]);
}

// A push notification (server/notifications/push-worker.ts): title, text, the page it opens, and a
// tag, so that a newer one about the same thing (more likes of one discussion) replaces the older.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: event.data ? event.data.text() : '' };
  }
  const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/notifications';
  event.waitUntil(
    self.registration.showNotification(message.title || 'RealtyPocket', {
      body: message.body || '',
      tag: message.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url },
    }),
  );
});

// Tapping it opens its page: in a window of the site already open, else a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) return open.navigate(url).then((client) => (client || open).focus());
      return self.clients.openWindow(url);
    }),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'signed-out') event.waitUntil(forgetMember());
});

// A plain page's script is named by its content too (`?v=`, app/lib/plain-page.server.ts).
const isAsset = (url) =>
  url.pathname.startsWith('/assets/') ||
  /\.(?:svg|png|webp|jpe?g|woff2)$/.test(url.pathname) ||
  (url.pathname === '/page-enhancer.js' && url.searchParams.has('v'));
const isDownload = (url) => /^\/api\/(?:resources\/[^/]+\/download|files\/[^/]+)$/.test(url.pathname);

/** Cache first: an asset's address names its content. */
async function fromAssets(request) {
  const cache = await caches.open(ASSETS);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

/** Network first, so a page is always current online; the copy last seen when offline. */
async function page(request, isNavigation) {
  try {
    const response = await fetch(request);
    // Only complete answers of this site: not a redirect (to /login, say) nor an error page.
    if (response.status === 200 && response.type === 'basic' && !response.redirected) {
      const cache = await caches.open(PAGES);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request, { cacheName: PAGES });
    if (cached) return cached;
    if (isNavigation) {
      const offline = await caches.match(OFFLINE_PAGE, { cacheName: PAGES });
      if (offline) return offline;
    }
    throw error;
  }
}

/**
 * A download the member may have saved: online the server decides (their plan may have changed,
 * and a refusal removes the saved copy); offline the saved copy, if there is one.
 */
async function download(request) {
  const cache = await caches.open(DOWNLOADS);
  try {
    const response = await fetch(request);
    if (response.status === 401 || response.status === 403 || response.status === 404) await cache.delete(request.url);
    return response;
  } catch (error) {
    const saved = await cache.match(request.url);
    if (saved) return saved;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && (url.pathname === '/logout' || url.pathname === '/logout.data' || url.pathname === '/api/auth/logout')) {
    event.waitUntil(forgetMember());
    return;
  }
  if (request.method !== 'GET') return;
  if (isDownload(url)) {
    event.respondWith(download(request));
    return;
  }
  // Answers of the API depend on who asks, and the admin area is never kept.
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/admin')) return;
  if (url.pathname === '/sw.js') return;
  if (isAsset(url)) {
    event.respondWith(fromAssets(request));
    return;
  }
  if (request.mode === 'navigate' || url.pathname.endsWith('.data')) event.respondWith(page(request, request.mode === 'navigate'));
});
