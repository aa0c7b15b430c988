import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A casino host page on its own origin, for browser tests of the embed: it loads `/embed/v1.js` from the
 * sportsbook and mounts it with the options registered by `url(options)`. Every event reaches
 * `window.events` ({ type, payload }) through `onEvent`; the handle is `window.sportsbook`; `onSessionExpired` asks
 * `window.freshLaunchToken()` (a function the test exposes) when it exists and leaves the player logged out when not.
 */
export interface HostPage {
  /** e.g. http://127.0.0.1:41235 */
  origin: string;
  /** The page that mounts the sportsbook with these options (url and tenant included). */
  url(options: Record<string, unknown>, containerStyle?: string): string;
  close(): Promise<void>;
}

export async function startHostPage(sportsbookUrl: string): Promise<HostPage> {
  // Options stay on this server, as a casino's server renders them into its page: never in the page's URL.
  const pages = new Map<string, { options: string; style: string }>();
  const server: Server = createServer((request, response) => {
    const id = new URL(request.url ?? '/', 'http://host').searchParams.get('page') ?? '';
    const { options, style } = pages.get(id) ?? { options: '{}', style: '' };
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Casino host</title><style>body{margin:0;font-family:sans-serif}header{height:56px;background:#222;color:#fff}</style>
</head><body><header>Casino</header><div id="sportsbook" style="${style.replace(/"/g, '')}"></div>
<script src="${sportsbookUrl}/embed/v1.js"></script>
<script>
  window.events = [];
  window.errors = [];
  const options = ${JSON.stringify(options)};
  window.sportsbook = Bookmaker.mount('#sportsbook', Object.assign(JSON.parse(options), {
    onEvent: (type, payload) => window.events.push({ type, payload }),
    onError: (payload) => window.errors.push(payload),
    onSessionExpired: () => (window.freshLaunchToken ? window.freshLaunchToken() : null),
  }));
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (options, containerStyle = 'height: 700px') => {
      const id = String(pages.size + 1);
      pages.set(id, { options: JSON.stringify(options), style: containerStyle });
      return `${origin}/?page=${id}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
