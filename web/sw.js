// The service worker: keeps the client's files, so that they load from this device, and shows
// offline.html when a page cannot be loaded (no network, or the server down) instead of the
// browser's error.
//
// - Files under the current version's prefix `/v/<version>/` never change (see server/src/web.rs),
//   so they are served from the cache first and kept there once fetched.
// - A page load (a navigation) always goes to the network, and falls back to the offline page,
//   kept at install with what it loads (versioned files, served from the cache as the others).
// - Nothing else is kept: never the API (`/api/`), the WebSocket (`/ws`) or the metrics, which are
//   live data; everything else goes to the network as if there were no service worker.
// The server fills in the version; a new version is a new worker, which drops the old cache.
const VERSION = "{{version}}";
const CACHE = `tafl-${VERSION}`;
const OFFLINE = "/offline.html";
const PRECACHED = [
  OFFLINE,
  ...["offline.css", "offline.js", "manifest.webmanifest", "icons/icon.svg", "icons/icon-192.png"]
    .map((file) => `/v/${VERSION}/${file}`),
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHED)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Whether a request is live data, never to be kept.
function live(url) {
  return url.pathname.startsWith("/api/") || url.pathname === "/ws" || url.pathname === "/metrics";
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || live(url)) return;
  // A ranged request (audio, video) is the browser's own business: a cache cannot hold a part.
  if (request.headers.has("range")) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith(`/v/${VERSION}/`)) {
    event.respondWith(fromCache(request));
  } else if (url.pathname === OFFLINE) {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});

// The kept copy of a versioned file, else the network's, kept for next time.
async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  // Only what the server says never changes: a page from an older version asking for its old
  // path gets today's file, which is not kept.
  if (response.ok && response.headers.get("Cache-Control")?.includes("immutable")) {
    await cache.put(request, response.clone());
  }
  return response;
}
