/** The demo casino's HTML, rendered on its server. The behaviour is in public/casino.js, the look in casino.css. */

export interface PageConfig {
  brand: string;
  sportsbookUrl: string;
  apiReferenceUrl: string;
  tenant: string;
  currency: string;
  locale: string;
  locales: string[];
  /** A single-use launch token for the logged-in player, or null for an anonymous visitor. */
  launchToken: string | null;
  player: { name: string } | null;
  /** Minor units, from the casino's wallet; null when unknown. */
  balance: number | null;
  /** Something went wrong on the server while rendering: said on the page. */
  notice: string | null;
}

const LOCALE_NAMES: Record<string, string> = { en: 'English', 'pt-BR': 'Português', es: 'Español' };
export const DEMO_PLAYERS = ['Ana', 'Bruno', 'Carla'];

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/** JSON inside <script type="application/json">: nothing in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function casinoPage(config: PageConfig): string {
  const brand = escapeHtml(config.brand);
  const sportsbook = escapeHtml(config.sportsbookUrl);
  const locales = config.locales
    .map(
      (locale) =>
        `<option value="${escapeHtml(locale)}"${locale === config.locale ? ' selected' : ''}>` +
        `${escapeHtml(LOCALE_NAMES[locale] ?? locale)}</option>`,
    )
    .join('');
  const chips = DEMO_PLAYERS.map(
    (name) => `<button type="button" class="chip" data-name="${escapeHtml(name)}">${escapeHtml(name)}</button>`,
  ).join('');
  return `<!doctype html>
<html lang="${escapeHtml(config.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${brand} Casino · Sports</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/casino.css">
<script type="application/json" id="casino-config">${scriptJson(config)}</script>
<script src="${sportsbook}/embed/v1.js" defer></script>
<script src="/casino.js" defer></script>
</head>
<body>
<header class="topbar">
  <a class="brand" href="/" aria-label="${brand} Casino, home">
    <span class="brand-mark" aria-hidden="true">★</span>
    <span class="brand-name">${brand}</span><span class="brand-kind">casino</span>
  </a>
  <nav class="sections" aria-label="Casino sections">
    <a href="/" class="section">Slots</a>
    <a href="/" class="section">Live casino</a>
    <a href="/" class="section active" aria-current="page">Sports</a>
    <a href="/" class="section">Promotions</a>
  </nav>
  <div class="account" id="account" aria-live="polite">
    <div class="signed-in" id="signed-in" hidden>
      <div class="balance" title="Your balance in the casino wallet (updated by balance_changed)">
        <span class="balance-label">Balance</span>
        <output class="balance-amount" id="balance">–</output>
      </div>
      <button type="button" class="button gold" id="deposit">Deposit</button>
      <div class="who">
        <span class="avatar" id="avatar" aria-hidden="true"></span>
        <span class="who-text"><span class="who-name" id="player-name"></span>
        <a href="/" class="logout" id="logout">Log out</a></span>
      </div>
    </div>
    <div class="signed-out" id="signed-out" hidden>
      <button type="button" class="button ghost" id="join">Join</button>
      <button type="button" class="button gold" id="login">Log in</button>
    </div>
    <label class="locale"><span class="sr-only">Language</span>
      <select id="locale">${locales}</select>
    </label>
  </div>
</header>
<p class="devbar" role="note">
  <strong>Demo casino</strong> · a development tool<span class="devbar-more"> on its own origin, embedding the
  sportsbook at
  <a href="${sportsbook}/?tenant=${escapeHtml(encodeURIComponent(config.tenant))}" target="_blank" rel="noopener">${sportsbook}</a></span>
  · <a href="${escapeHtml(config.apiReferenceUrl)}" target="_blank" rel="noopener">API reference</a>
</p>
${config.notice ? `<p class="notice" role="alert">${escapeHtml(config.notice)}</p>` : ''}
<main class="layout">
  <section class="stage" aria-label="Sportsbook">
    <div id="sportsbook" class="sportsbook"></div>
  </section>
  <aside class="side" aria-label="Developer panels">
    <section class="card trader" aria-labelledby="trader-title">
      <div class="card-head">
        <h2 id="trader-title">Trader shortcut</h2>
        <span class="tag">dev tool</span>
      </div>
      <p class="hint">The markets of open bets at this casino. A button settles one from the casino server
        with a trader token the demo made: a development shortcut, never part of a real casino.</p>
      <p id="trader-note" class="trader-note" role="status" hidden></p>
      <div id="trader" class="trader-list"><p class="empty">Log in, place a bet in the sportsbook, and its market shows here.</p></div>
      <p class="dev-actions" id="dev-actions" hidden>
        <button type="button" class="link" id="end-session">End the sportsbook session</button>
        from the casino server, to watch <code>onSessionExpired</code> fetch a new launch token.
      </p>
    </section>
    <section class="card events" aria-labelledby="events-title">
      <div class="card-head">
        <h2 id="events-title">Sportsbook events <span class="count" id="event-count">0</span></h2>
        <button type="button" class="link" id="clear-events">Clear</button>
      </div>
      <p class="hint">What the SDK reports (protocol v1), newest first; <span class="dir-out">→</span> marks the
        commands this page sent.</p>
      <ol id="events" class="event-list" aria-live="polite"></ol>
    </section>
  </aside>
</main>
<dialog id="login-dialog" class="dialog" aria-labelledby="login-title">
  <form method="dialog" id="login-form">
    <h2 id="login-title">Log in to ${brand}</h2>
    <p class="dialog-reason" id="login-reason" hidden></p>
    <label class="field"><span>Player name</span>
      <input name="name" id="login-name" autocomplete="nickname" maxlength="32" required placeholder="Ana">
    </label>
    <div class="chips" aria-label="Demo players">${chips}</div>
    <p class="hint">Any name works: a new name is a new casino account with a welcome balance. The casino's server
      then asks the sportsbook for a session with its integration key; the browser only sees a launch token.</p>
    <p class="error" id="login-error" role="alert" hidden></p>
    <div class="dialog-actions">
      <button type="button" class="button ghost dark" value="cancel" id="login-cancel">Cancel</button>
      <button type="submit" class="button gold" id="login-submit">Log in</button>
    </div>
  </form>
</dialog>
<dialog id="cashier-dialog" class="dialog" aria-labelledby="cashier-title">
  <form method="dialog" id="cashier-form">
    <h2 id="cashier-title">Cashier</h2>
    <p class="hint">A fake cashier: the casino's server credits your casino wallet (the reference wallet's control
      API), then the page asks the sportsbook to refresh its balance.</p>
    <fieldset class="amounts" id="amounts"><legend>Deposit</legend></fieldset>
    <p class="success" id="cashier-done" role="status" hidden></p>
    <p class="error" id="cashier-error" role="alert" hidden></p>
    <div class="dialog-actions">
      <button type="button" class="button ghost dark" id="cashier-cancel">Close</button>
      <button type="submit" class="button gold" id="cashier-submit">Deposit</button>
    </div>
  </form>
</dialog>
</body>
</html>
`;
}

/** While the demo is still provisioning: the page reloads itself. */
export function startingPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<title>Demo casino: starting</title></head><body style="font:16px system-ui;margin:3rem">
<p>The demo is starting: this page reloads in a moment.</p></body></html>
`;
}
