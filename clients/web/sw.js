// The referee tablet's app shell (served as /sw.js, registered with scope /tablet/).
//
// Network first, so a tablet always runs what the hub serves now; when the hub cannot be reached
// (or does not answer within NETWORK_WAIT_MS, a half-dead network), the copy cached at the last
// visit. Every /tablet/{id} page is the same shell, kept under one key; so are the table's name and
// the disciplines' traits (GET /api/disciplines: disciplines.js reads them before the page starts)
// and the draw formats' views (GET /api/draw-formats: draw-formats.js, the same way).
// The table socket and the hub's other reads are never cached here: entries wait in the tablet's
// own queue (live.js).
const CACHE = "cuehub-tablet-v11"; // v11: rubber-view.js (ui.js names a team match's rubber); v10: tablet-racks.js, tablet-actions.js, tablet-stroke.js, tablet-start.js, tablet-over.js, tablet-status.js, tablet-left.js, tablet-token.js, tablet-log.js, tablet-clock.js (split from tablet.js); v9: device.js and tablet-doubles.js, the teams strings; (split from live.js and tablet.js); v8: draw-formats.js and /api/draw-formats (the rounds named by the format's view, not its name); v7: the people, ratings and series areas of the language tables; v6: the sign-up strings (js/strings/*/entry.js, imported by i18n.js); v5: disciplines.js and /api/disciplines (the pages read traits, not names); v4: the language tables in js/strings/
const DISCIPLINES = "/api/disciplines";
const DRAW_FORMATS = "/api/draw-formats";
const SHELL = "/tablet/_shell";
const NETWORK_WAIT_MS = 4000;
const ASSETS = [
  "/static/css/base.css",
  "/static/css/tablet.css",
  "/static/js/tablet.js",
  "/static/js/live.js",
  "/static/js/ui.js",
  "/static/js/i18n.js",
  "/static/js/stroke_form.js",
  "/static/js/entries.js",
  "/static/js/draw-view.js",
  "/static/js/strings/note-args.js",
  "/static/js/strings/en/common.js",
  "/static/js/strings/en/match.js",
  "/static/js/strings/en/tablet.js",
  "/static/js/strings/en/screens.js",
  "/static/js/strings/en/notes.js",
  "/static/js/strings/en/desk.js",
  "/static/js/strings/en/corrections.js",
  "/static/js/strings/en/fans.js",
  "/static/js/strings/en/follow.js",
  "/static/js/strings/en/entry.js",
  "/static/js/strings/en/people.js",
  "/static/js/strings/en/ratings.js",
  "/static/js/strings/en/series.js",
  "/static/js/strings/en/teams.js",
  "/static/js/strings/zh-CN/common.js",
  "/static/js/strings/zh-CN/match.js",
  "/static/js/strings/zh-CN/tablet.js",
  "/static/js/strings/zh-CN/screens.js",
  "/static/js/strings/zh-CN/notes.js",
  "/static/js/strings/zh-CN/desk.js",
  "/static/js/strings/zh-CN/corrections.js",
  "/static/js/strings/zh-CN/fans.js",
  "/static/js/strings/zh-CN/follow.js",
  "/static/js/strings/zh-CN/entry.js",
  "/static/js/strings/zh-CN/people.js",
  "/static/js/strings/zh-CN/ratings.js",
  "/static/js/strings/zh-CN/series.js",
  "/static/js/strings/zh-CN/teams.js",
  "/static/js/disciplines.js",
  "/static/js/device.js",
  "/static/js/tablet-doubles.js",
  "/static/js/rubber-view.js",
  "/static/js/tablet-racks.js",
  "/static/js/tablet-stroke.js",
  "/static/js/tablet-start.js",
  "/static/js/tablet-over.js",
  "/static/js/tablet-status.js",
  "/static/js/tablet-left.js",
  "/static/js/tablet-token.js",
  "/static/js/tablet-actions.js",
  "/static/js/tablet-log.js",
  "/static/js/tablet-clock.js",
  "/static/js/draw-formats.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...ASSETS, SHELL, DISCIPLINES, DRAW_FORMATS]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

function cacheKey(request) {
  const url = new URL(request.url);
  if (request.mode === "navigate" && url.pathname.startsWith("/tablet/")) return SHELL;
  if (url.pathname.startsWith("/static/")) return url.pathname;
  if (url.pathname.startsWith("/api/tables/")) return url.pathname; // the table's name, offline
  if (url.pathname === DISCIPLINES) return DISCIPLINES; // what the page knows of its disciplines, offline
  if (url.pathname === DRAW_FORMATS) return DRAW_FORMATS; // and of the draw formats
  return null;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), NETWORK_WAIT_MS)),
    ]);
    if (response.ok) await cache.put(key, response.clone());
    if (response.ok || response.status === 404) return response;
    throw new Error(`${response.status}`);
  } catch (err) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const key = cacheKey(request);
  if (key) event.respondWith(networkFirst(request, key));
});
