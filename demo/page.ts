/** The demo casino's HTML, rendered on its server. The behaviour is in public/casino.js, the look in casino.css. */
import type { Locale } from './casino-state.ts';
import { fill, MESSAGES, type MessageKey, type Messages } from './messages.ts';

export interface PageConfig {
  brand: string;
  sportsbookUrl: string;
  apiReferenceUrl: string;
  tenant: string;
  currency: string;
  locale: Locale;
  locales: Locale[];
  /** The casino's words in each of its languages: the page switches language without a reload. */
  messages: Readonly<Record<Locale, Messages>>;
  /** A single-use launch token for the logged-in player, or null for an anonymous visitor. */
  launchToken: string | null;
  player: { name: string } | null;
  /** Minor units, from the casino's wallet; null when unknown. */
  balance: number | null;
  /** Something went wrong on the server while rendering: said on the page. */
  notice: string | null;
}

/** Each language by its own name (the switch shows it so, whatever the page's language). */
const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'pt-BR': 'Português', es: 'Español' };
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
  const words = config.messages[config.locale];
  /** A message of the page's language, escaped; {brand} filled in. */
  const t = (key: MessageKey) => escapeHtml(fill(words[key], { brand: config.brand }));
  /** An element's text that follows the language switch (public/casino.js fills `data-t` again). */
  const text = (key: MessageKey) => `data-t="${key}">${t(key)}`;
  const brand = escapeHtml(config.brand);
  const sportsbook = escapeHtml(config.sportsbookUrl);
  const locales = config.locales
    .map(
      (locale) =>
        `<option value="${escapeHtml(locale)}"${locale === config.locale ? ' selected' : ''}>` +
        `${escapeHtml(LOCALE_NAMES[locale])}</option>`,
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
<title>${t('pageTitle')}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/casino.css">
<script type="application/json" id="casino-config">${scriptJson(config)}</script>
<script src="${sportsbook}/embed/v1.js" defer></script>
<script src="/casino.js" defer></script>
</head>
<body>
<header class="topbar">
  <a class="brand" href="/" aria-label="${t('brandHome')}" data-t-label="brandHome">
    <span class="brand-mark" aria-hidden="true">★</span>
    <span class="brand-name">${brand}</span><span class="brand-kind" ${text('brandKind')}</span>
  </a>
  <nav class="sections" aria-label="${t('sectionsLabel')}" data-t-label="sectionsLabel">
    <a href="/" class="section" ${text('sectionSlots')}</a>
    <a href="/" class="section" ${text('sectionLive')}</a>
    <a href="/" class="section active" aria-current="page" ${text('sectionSports')}</a>
    <a href="/" class="section" ${text('sectionPromotions')}</a>
  </nav>
  <div class="account" id="account" aria-live="polite">
    <div class="signed-in" id="signed-in" hidden>
      <div class="balance" title="${t('balanceTitle')}" data-t-title="balanceTitle">
        <span class="balance-label" ${text('balance')}</span>
        <output class="balance-amount" id="balance">–</output>
      </div>
      <button type="button" class="button gold" id="deposit" ${text('deposit')}</button>
      <div class="who">
        <span class="avatar" id="avatar" aria-hidden="true"></span>
        <span class="who-text"><span class="who-name" id="player-name"></span>
        <a href="/" class="logout" id="logout" ${text('logOut')}</a></span>
      </div>
    </div>
    <div class="signed-out" id="signed-out" hidden>
      <button type="button" class="button ghost" id="join" ${text('join')}</button>
      <button type="button" class="button gold" id="login" ${text('logIn')}</button>
    </div>
    <label class="locale"><span class="sr-only" ${text('language')}</span>
      <select id="locale">${locales}</select>
    </label>
  </div>
</header>
<p class="devbar" role="note">
  <strong ${text('devbarTitle')}</strong> · <span ${text('devbarTool')}</span><span class="devbar-more">
  <span ${text('devbarEmbedding')}</span>
  <a href="${sportsbook}/?tenant=${escapeHtml(encodeURIComponent(config.tenant))}" target="_blank" rel="noopener">${sportsbook}</a></span>
  · <a href="${escapeHtml(config.apiReferenceUrl)}" target="_blank" rel="noopener" ${text('apiReference')}</a>
</p>
${config.notice ? `<p class="notice" role="alert">${escapeHtml(config.notice)}</p>` : ''}
<main class="layout">
  <section class="stage" aria-label="${t('sportsbookLabel')}" data-t-label="sportsbookLabel">
    <div id="sportsbook" class="sportsbook"></div>
  </section>
  <aside class="side" aria-label="${t('sidePanels')}" data-t-label="sidePanels">
    <section class="card trader" aria-labelledby="trader-title">
      <div class="card-head">
        <h2 id="trader-title" ${text('traderTitle')}</h2>
        <span class="tag" ${text('devTool')}</span>
      </div>
      <p class="hint" ${text('traderHint')}</p>
      <p id="trader-note" class="trader-note" role="status" hidden></p>
      <div id="trader" class="trader-list"><p class="empty" ${text('traderEmptyVisitor')}</p></div>
      <p class="dev-actions" id="dev-actions" hidden>
        <button type="button" class="link" id="end-session" ${text('endSession')}</button>
        <span ${text('endSessionWhy')}</span> <code>onSessionExpired</code> <span ${text('endSessionThen')}</span>
      </p>
    </section>
    <section class="card fault" aria-labelledby="fault-title">
      <div class="card-head">
        <h2 id="fault-title" ${text('faultTitle')}</h2>
        <span class="tag" ${text('faultTag')}</span>
      </div>
      <p class="hint" ${text('faultHint')}</p>
      <fieldset class="fault-choice">
        <legend ${text('faultChoice')}</legend>
        <label class="fault-option"><input type="radio" name="fault-target" value="credit" checked>
          <span ${text('faultCredit')}</span></label>
        <label class="fault-option"><input type="radio" name="fault-target" value="debit">
          <span ${text('faultDebit')}</span></label>
      </fieldset>
      <p class="fault-state" id="fault-state" role="status" ${text('faultOff')}</p>
      <p class="fault-last" id="fault-last" hidden></p>
      <div class="fault-actions">
        <button type="button" class="button small" id="fault-arm" ${text('faultArm')}</button>
        <button type="button" class="link" id="fault-disarm" hidden ${text('faultDisarm')}</button>
      </div>
    </section>
    <section class="card events" aria-labelledby="events-title">
      <div class="card-head">
        <h2 id="events-title"><span ${text('eventsTitle')}</span> <span class="count" id="event-count">0</span></h2>
        <button type="button" class="link" id="clear-events" ${text('clear')}</button>
      </div>
      <p class="hint"><span ${text('eventsHint')}</span> <span class="dir-out">→</span>
        <span ${text('eventsHintArrow')}</span></p>
      <ol id="events" class="event-list" aria-live="polite"></ol>
    </section>
  </aside>
</main>
<dialog id="login-dialog" class="dialog" aria-labelledby="login-title">
  <form method="dialog" id="login-form">
    <h2 id="login-title" ${text('loginTitle')}</h2>
    <p class="dialog-reason" id="login-reason" hidden></p>
    <label class="field"><span ${text('playerName')}</span>
      <input name="name" id="login-name" autocomplete="nickname" maxlength="32" required placeholder="Ana">
    </label>
    <div class="chips" aria-label="${t('demoPlayers')}" data-t-label="demoPlayers">${chips}</div>
    <p class="hint" ${text('loginHint')}</p>
    <p class="error" id="login-error" role="alert" hidden></p>
    <div class="dialog-actions">
      <button type="button" class="button ghost dark" value="cancel" id="login-cancel" ${text('cancel')}</button>
      <button type="submit" class="button gold" id="login-submit" ${text('logIn')}</button>
    </div>
  </form>
</dialog>
<dialog id="cashier-dialog" class="dialog" aria-labelledby="cashier-title">
  <form method="dialog" id="cashier-form">
    <h2 id="cashier-title" ${text('cashierTitle')}</h2>
    <p class="hint" ${text('cashierHint')}</p>
    <fieldset class="amounts" id="amounts"><legend ${text('deposit')}</legend></fieldset>
    <p class="success" id="cashier-done" role="status" hidden></p>
    <p class="error" id="cashier-error" role="alert" hidden></p>
    <div class="dialog-actions">
      <button type="button" class="button ghost dark" id="cashier-cancel" ${text('close')}</button>
      <button type="submit" class="button gold" id="cashier-submit" ${text('deposit')}</button>
    </div>
  </form>
</dialog>
</body>
</html>
`;
}

/** While the demo is still provisioning, in the browser's language: the page reloads itself. */
export function startingPage(locale: Locale): string {
  const words = MESSAGES[locale];
  return `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<title>${escapeHtml(words.startingTitle)}</title></head><body style="font:16px system-ui;margin:3rem">
<p>${escapeHtml(words.starting)}</p></body></html>
`;
}
