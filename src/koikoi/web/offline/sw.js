// The service worker: after one visit, the game starts with no network.
//
// The server serves this file as /sw.js (scope: the whole site), OFFLINE filled in:
// {version, cache, prefix, precache}, the release's version (the package's and a hash
// of the content of every cached file and of this file), its cache's name, the prefix
// of every release's cache, and the addresses to cache (koikoi.server.offline).
//
// * install: every address is fetched past the HTTP cache into one cache, named
//   koikoi-<version>; the new worker takes over at once (skipWaiting).
// * activate: every other koikoi- cache (an older release) is deleted, and the open
//   pages are taken over (clients.claim). A page keeps the modules it has loaded; its
//   next load is all the new release.
// * fetch: the cached addresses come from the cache (the network if missing); a visit
//   to the game (a navigation to /, any query) is the cached page. Everything else,
//   the API's games, sessions, accounts and boards included, goes to the network
//   untouched: it is never cached.

const OFFLINE = __OFFLINE__;
const CACHE = OFFLINE.cache;
const PRECACHE = new Set(OFFLINE.precache);
const SHELL = "/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...PRECACHE].map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(OFFLINE.prefix) && name !== CACHE).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === SHELL) event.respondWith(cached(SHELL, request));
    return;
  }
  if (!url.search && PRECACHE.has(url.pathname)) event.respondWith(cached(url.pathname, request));
});

async function cached(key, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key, { ignoreVary: true });
  return hit || fetch(request);
}
