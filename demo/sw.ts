// The demo's service worker: precaches the app shell, the bundles (the
// WebAssembly core is inlined in worker.js) and the dataset under a cache
// named after the build's content hash, then answers from that cache, so the
// demo opens and searches with no network. A new build is a new cache.
declare const __BUILD_VERSION__: string;
declare const __PRECACHE__: string[];

interface ExtendableEvent extends Event { waitUntil(work: Promise<unknown>): void }
interface FetchEvent extends ExtendableEvent { request: Request; respondWith(response: Promise<Response>): void }
interface ServiceWorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as ServiceWorkerScope;
const PREFIX = 'lantern-demo-';
const CACHE = PREFIX + __BUILD_VERSION__;

worker.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__PRECACHE__)).then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    await worker.clients.claim();
  })());
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== worker.location.origin) return;
  event.respondWith((async () => {
    const cached = await caches.match(event.request, { cacheName: CACHE, ignoreSearch: true });
    return cached ?? fetch(event.request);
  })());
});
