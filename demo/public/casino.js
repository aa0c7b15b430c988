// The demo casino's page: mounts the sportsbook with the SDK (/embed/v1.js, global `Bookmaker`), shows every event
// it reports, keeps the header balance from balance_changed, and plays the casino's part: log-in, cashier, log-out.
// Server calls go to the casino's own server (same origin); the integration key never reaches this page. Its words
// come from the message tables the server put in the config (demo/messages.ts), in the language the switch chose.
/* global document, window, Bookmaker */
'use strict';

(() => {
  const config = JSON.parse(document.getElementById('casino-config').textContent);
  const state = {
    player: config.player,
    balance: config.balance,
    currency: config.currency,
    locale: config.locale,
  };
  const byId = (id) => document.getElementById(id);
  /** @type {any} */
  let handle = null;

  // ---- words ----

  /** A message in the chosen language, its {placeholders} filled in ({brand} always). */
  const tr = (key, values = {}) => {
    const text = config.messages[state.locale]?.[key] ?? config.messages.en[key] ?? key;
    const all = { brand: config.brand, ...values };
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in all ? String(all[name]) : whole));
  };
  const number = (value) => new Intl.NumberFormat(state.locale).format(value);
  /** A counted message: `{base}_one` or `{base}_other` by the language's plural rules, {n} in its digits. */
  const counted = (base, n) =>
    tr(`${base}_${new Intl.PluralRules(state.locale).select(n) === 'one' ? 'one' : 'other'}`, { n: number(n) });

  /** The page's own words again, after the language changed (the server rendered them in the first one). */
  function applyWords() {
    document.documentElement.lang = state.locale;
    document.title = tr('pageTitle');
    for (const element of document.querySelectorAll('[data-t]')) element.textContent = tr(element.dataset.t);
    for (const element of document.querySelectorAll('[data-t-title]')) element.title = tr(element.dataset.tTitle);
    for (const element of document.querySelectorAll('[data-t-label]')) {
      element.setAttribute('aria-label', tr(element.dataset.tLabel));
    }
  }

  // ---- money ----

  const fractionDigits = (currency) =>
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const money = (minor, currency = state.currency) =>
    new Intl.NumberFormat(state.locale, { style: 'currency', currency }).format(minor / 10 ** fractionDigits(currency));
  const toMinor = (major, currency = state.currency) => Math.round(major * 10 ** fractionDigits(currency));

  // ---- the casino's server ----

  async function call(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    const answer = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) {
      // the casino's own refusals in the chosen language; anything else as its server said it
      const code = answer?.error?.code;
      const known = code && config.messages.en[`error_${code}`] ? tr(`error_${code}`) : null;
      throw new Error(known ?? answer?.error?.message ?? `${response.status} ${response.statusText}`);
    }
    return answer;
  }
  const post = (path, body = {}) => call('POST', path, body);

  // ---- the event panel ----

  const KINDS = {
    ready: 'info',
    route: 'info',
    resize: 'info',
    login_required: 'warn',
    session_expired: 'warn',
    balance_changed: 'money',
    deposit_requested: 'money',
    bet_placed: 'bet',
    bet_settled: 'bet',
    error: 'error',
  };
  const MAX_EVENTS = 200;
  let eventCount = 0;
  const time = (date) =>
    `${date.toLocaleTimeString(state.locale, { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
  /** Launch tokens are single use and already spent once shown, but they still do not belong on a screen. */
  const redact = (payload) =>
    payload && typeof payload.launchToken === 'string' ? { ...payload, launchToken: 'bm_launch_…' } : payload;

  function logLine(direction, type, payload) {
    const item = document.createElement('li');
    item.className = `event ${direction === 'out' ? 'out' : `kind-${KINDS[type] ?? 'info'}`}`;
    const head = document.createElement('div');
    head.className = 'event-head';
    const arrow = document.createElement('span');
    arrow.className = direction === 'out' ? 'dir-out' : 'dir-in';
    arrow.textContent = direction === 'out' ? '→' : '←';
    arrow.title = direction === 'out' ? tr('commandSent') : tr('eventReceived');
    const name = document.createElement('span');
    name.className = 'event-type';
    name.textContent = type;
    const at = document.createElement('time');
    at.textContent = time(new Date());
    head.append(arrow, name, at);
    const body = document.createElement('code');
    body.className = 'event-payload';
    body.textContent = JSON.stringify(redact(payload) ?? {}, null, 1).replace(/\n\s*/g, ' ');
    item.append(head, body);
    const list = byId('events');
    list.prepend(item);
    while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
    byId('event-count').textContent = number((eventCount += 1));
  }
  /** A command this page sends, logged before the SDK posts it. */
  function command(type, payload = {}) {
    logLine('out', type, payload);
  }

  // ---- the header ----

  function setBalance(balance, currency) {
    state.balance = balance;
    if (currency) state.currency = currency;
    const output = byId('balance');
    output.textContent = typeof balance === 'number' ? money(balance) : '–';
    output.classList.remove('flash');
    void output.offsetWidth; // restart the animation
    output.classList.add('flash');
  }

  function renderAccount() {
    const signedIn = Boolean(state.player);
    byId('signed-in').hidden = !signedIn;
    byId('signed-out').hidden = signedIn;
    if (signedIn) {
      byId('player-name').textContent = state.player.name;
      byId('avatar').textContent = state.player.name.slice(0, 1).toUpperCase();
    }
    byId('dev-actions').hidden = !signedIn;
    setBalance(state.balance);
  }

  // ---- log-in ----

  const LOGIN_REASONS = ['place_bet', 'my_bets', 'login_button', 'deposit', 'join'];

  /** Why the log-in dialog is open, said again in a new language. */
  let loginReason = null;

  function openLogin(reason) {
    loginReason = reason;
    const text = LOGIN_REASONS.includes(reason) ? tr(`loginReason_${reason}`) : undefined;
    byId('login-reason').hidden = !text;
    byId('login-reason').textContent = text ?? '';
    byId('login-error').hidden = true;
    const dialog = byId('login-dialog');
    if (!dialog.open) dialog.showModal();
    byId('login-name').focus();
  }

  async function logIn(name) {
    const submit = byId('login-submit');
    submit.disabled = true;
    try {
      const answer = await post('/login', { name });
      state.player = answer.player;
      state.balance = answer.balance;
      renderAccount();
      command('set_launch_token', { launchToken: answer.launchToken });
      handle?.setLaunchToken(answer.launchToken);
      byId('login-dialog').close();
      void loadTrader();
    } catch (error) {
      byId('login-error').textContent = error.message;
      byId('login-error').hidden = false;
    } finally {
      submit.disabled = false;
    }
  }

  async function logOut() {
    command('logout');
    handle?.logout();
    await post('/logout').catch(() => undefined);
    state.player = null;
    state.balance = null;
    renderAccount();
    void loadTrader();
  }

  /** A fresh launch token from the casino's server, at most a few a minute (a failing launch must not loop). */
  const refreshes = [];
  async function freshLaunchToken() {
    const now = Date.now();
    while (refreshes.length > 0 && now - refreshes[0] > 60_000) refreshes.shift();
    if (refreshes.length >= 3) return null;
    refreshes.push(now);
    const { launchToken } = await post('/launch-token');
    if (launchToken) command('set_launch_token', { launchToken });
    return launchToken;
  }

  async function onLoginRequired(reason) {
    if (!state.player) return openLogin(reason);
    // Logged in at the casino but not in the sportsbook (its session ended): a new session, no dialog.
    const token = await post('/launch-token').then((answer) => answer.launchToken);
    if (!token) return openLogin(reason);
    command('set_launch_token', { launchToken: token });
    handle?.setLaunchToken(token);
  }

  // ---- the cashier ----

  const AMOUNTS = [50, 100, 250, 500];

  function openCashier() {
    if (!state.player) return openLogin('deposit');
    const fieldset = byId('amounts');
    fieldset.querySelectorAll('label').forEach((label) => label.remove());
    AMOUNTS.forEach((amount, index) => {
      const label = document.createElement('label');
      label.className = 'amount';
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = 'amount';
      input.value = String(toMinor(amount));
      input.checked = index === 1;
      const text = document.createElement('span');
      text.textContent = money(toMinor(amount));
      label.append(input, text);
      fieldset.append(label);
    });
    byId('cashier-done').hidden = true;
    byId('cashier-error').hidden = true;
    byId('cashier-submit').disabled = false;
    byId('cashier-dialog').showModal();
  }

  async function deposit() {
    const chosen = byId('cashier-form').querySelector('input[name="amount"]:checked');
    if (!chosen) return;
    const amount = Number(chosen.value);
    byId('cashier-submit').disabled = true;
    try {
      await post('/cashier/deposit', { amount });
      byId('cashier-done').textContent = tr('credited', { amount: money(amount) });
      byId('cashier-done').hidden = false;
      command('refresh_balance');
      handle?.refreshBalance();
      window.setTimeout(() => byId('cashier-dialog').close(), 1200);
    } catch (error) {
      byId('cashier-error').textContent = error.message;
      byId('cashier-error').hidden = false;
      byId('cashier-submit').disabled = false;
    }
  }

  // ---- the trader shortcut (development only) ----

  const WINNERS = ['home', 'draw', 'away'];
  let traderTimer = 0;
  let traderBusy = false;
  /** The markets last shown, drawn again in a new language. */
  let traderMarkets = [];

  const oneWinner = (market) => market.marketType === 'match_result' || market.marketType === 'moneyline';
  function settleLabel(market, selection) {
    return oneWinner(market) && WINNERS.includes(selection.outcome)
      ? tr(`winner_${selection.outcome}`)
      : selection.name;
  }
  /** Who won, in words: the team for home and away, else the selection. */
  function winnerName(market, selection) {
    if (oneWinner(market) && selection.outcome === 'home') return tr('teamWon', { name: market.home });
    if (oneWinner(market) && selection.outcome === 'away') return tr('teamWon', { name: market.away });
    if (oneWinner(market) && selection.outcome === 'draw') return tr('winner_draw');
    return tr('teamWon', { name: selection.name });
  }
  function selectionTitle(market, selection) {
    const who = winnerName(market, selection);
    return tr('selectionTitle', { who, selection: selection.name, odds: selection.odds });
  }

  function renderTrader(markets) {
    traderMarkets = markets;
    const root = byId('trader');
    root.replaceChildren();
    if (markets.length === 0) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = state.player ? tr('traderEmptyPlayer') : tr('traderEmptyVisitor');
      root.append(empty);
      return;
    }
    for (const market of markets) {
      const card = document.createElement('article');
      card.className = 'market';
      const head = document.createElement('div');
      head.className = 'market-head';
      if (market.eventStatus === 'live') {
        const live = document.createElement('span');
        live.className = 'badge live';
        live.textContent = market.score
          ? tr('liveScore', { score: `${number(market.score.home)}-${number(market.score.away)}` })
          : tr('live');
        head.append(live);
      }
      const title = document.createElement('strong');
      title.textContent = market.eventName;
      head.append(title);
      const sub = document.createElement('div');
      sub.className = 'market-sub';
      sub.textContent = tr('marketLine', {
        competition: market.competition,
        market: market.marketName,
        bets: counted('openBets', market.bets),
        stake: money(market.stake),
      });
      const actions = document.createElement('div');
      actions.className = 'settle';
      actions.setAttribute('role', 'group');
      actions.setAttribute('aria-label', tr('settleGroup', { event: market.eventName, market: market.marketName }));
      const result = document.createElement('p');
      result.className = 'settle-result';
      result.hidden = true;
      for (const selection of market.selections.slice(0, 12)) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'button small';
        button.textContent = settleLabel(market, selection);
        button.title = `${selectionTitle(market, selection)}; POST /api/v1/admin/trading/markets/${market.marketId}/settle`;
        button.addEventListener('click', () => void settle(card, market, selection, result));
        actions.append(button);
      }
      card.append(head, sub, actions, result);
      root.append(card);
    }
  }

  async function loadTrader() {
    window.clearTimeout(traderTimer);
    traderTimer = window.setTimeout(() => void loadTrader(), 10_000);
    if (document.hidden) return;
    if (fault.armed) void loadFault(); // has the wallet used it yet?
    if (traderBusy) return;
    try {
      const { markets } = await call('GET', '/trader/markets');
      if (!traderBusy) renderTrader(markets);
    } catch {
      // the next poll tries again
    }
  }

  async function settle(card, market, selection, result) {
    traderBusy = true;
    card.querySelectorAll('button').forEach((button) => (button.disabled = true));
    try {
      const report = await post('/trader/settle', {
        eventId: market.eventId,
        marketId: market.marketId,
        selectionId: selection.id,
      });
      const owed = report.owed.map((entry) => money(entry.credits, entry.currency)).join(', ') || money(0);
      result.textContent = tr('settledResult');
      result.hidden = false;
      byId('trader-note').textContent = tr('lastSettlement', {
        event: market.eventName,
        market: market.marketName,
        winner: winnerName(market, selection),
        settled: counted('betsSettled', report.bets.settled),
        owed,
      });
      byId('trader-note').hidden = false;
      card.classList.add('settled');
      window.setTimeout(() => {
        command('refresh_balance');
        handle?.refreshBalance();
      }, 1500);
      window.setTimeout(() => {
        traderBusy = false;
        void loadTrader();
      }, 6000);
    } catch (error) {
      result.textContent = error.message;
      result.hidden = false;
      card.querySelectorAll('button').forEach((button) => (button.disabled = false));
      traderBusy = false;
    }
  }

  /** Ends the sportsbook session behind the page's back; the next player call finds it ended (session_expired). */
  async function endSession() {
    const button = byId('end-session');
    button.disabled = true;
    try {
      await post('/dev/end-session');
      command('refresh_balance');
      handle?.refreshBalance();
    } catch (error) {
      byId('trader-note').textContent = error.message;
      byId('trader-note').hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  // ---- the wallet fault switch (the demo's operator) ----

  /** The switch as the casino's server last said it: { armed: 'credit' | 'debit' | null, last: {...} | null }. */
  let fault = { armed: null, last: null };

  function renderFault() {
    const armed = fault.armed;
    byId('fault-state').textContent = armed ? tr(`faultArmed_${armed}`) : tr('faultOff');
    byId('fault-state').classList.toggle('armed', Boolean(armed));
    byId('fault-disarm').hidden = !armed;
    const last = fault.last;
    byId('fault-last').hidden = !last;
    if (last) {
      byId('fault-last').textContent = tr('faultUsed', {
        kind: last.kind,
        amount: money(last.amount, last.currency || state.currency),
        status: last.status,
        code: last.code,
        time: new Date(last.at).toLocaleTimeString(state.locale, { hour12: false }),
      });
    }
  }

  async function faultCall(method, body) {
    try {
      fault = await call(method, '/dev/wallet-fault', body);
    } catch (error) {
      byId('fault-last').textContent = error.message;
      byId('fault-last').hidden = false;
      return;
    }
    renderFault();
  }
  const loadFault = () => faultCall('GET');

  // ---- the sportsbook ----

  function mount() {
    if (typeof Bookmaker === 'undefined') {
      const stage = byId('sportsbook');
      stage.classList.add('failed');
      stage.textContent = tr('sdkMissing', { url: `${config.sportsbookUrl}/embed/v1.js` });
      return;
    }
    const options = {
      url: config.sportsbookUrl,
      tenant: config.tenant,
      locale: state.locale,
      title: tr('sportsbookTitle'),
      // the casino's own colours; its header shows the balance and Deposit, so the sportsbook's is hidden
      theme: { mode: 'dark', primary: '#8b5cf6', accent: '#ffc933', background: '#120a26', radius: 12 },
      header: false,
      onBalanceChanged: ({ balance, currency }) => setBalance(balance, currency),
      onDepositRequested: () => openCashier(),
      onLoginRequired: ({ reason }) => onLoginRequired(reason),
      onSessionExpired: ({ reason }) => (reason === 'logout' || !state.player ? null : freshLaunchToken()),
      onBetPlaced: () => void loadTrader(),
      onBetSettled: () => void loadTrader(),
      onEvent: (type, payload) => logLine('in', type, payload),
    };
    if (config.launchToken) options.launchToken = config.launchToken;
    handle = Bookmaker.mount('#sportsbook', options);
    window.sportsbook = handle; // for a developer's console
  }

  // ---- wiring ----

  byId('login').addEventListener('click', () => openLogin(null));
  byId('join').addEventListener('click', () => openLogin('join'));
  byId('deposit').addEventListener('click', () => openCashier());
  byId('logout').addEventListener('click', (event) => {
    event.preventDefault();
    void logOut();
  });
  byId('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = byId('login-name').value.trim();
    if (name) void logIn(name);
  });
  byId('login-cancel').addEventListener('click', () => byId('login-dialog').close());
  for (const chip of document.querySelectorAll('.chip')) {
    chip.addEventListener('click', () => {
      byId('login-name').value = chip.dataset.name;
      void logIn(chip.dataset.name);
    });
  }
  byId('cashier-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void deposit();
  });
  byId('cashier-cancel').addEventListener('click', () => byId('cashier-dialog').close());
  byId('end-session').addEventListener('click', () => void endSession());
  byId('fault-arm').addEventListener('click', () => {
    const target = document.querySelector('input[name="fault-target"]:checked')?.value ?? 'credit';
    void faultCall('PUT', { target });
  });
  byId('fault-disarm').addEventListener('click', () => void faultCall('DELETE'));
  byId('clear-events').addEventListener('click', () => {
    byId('events').replaceChildren();
    eventCount = 0;
    byId('event-count').textContent = number(0);
  });
  byId('locale').addEventListener('change', (event) => {
    const locale = event.target.value;
    state.locale = locale;
    applyWords();
    command('set_locale', { locale });
    handle?.setLocale(locale);
    void post('/locale', { locale }).catch(() => undefined);
    setBalance(state.balance);
    byId('event-count').textContent = number(eventCount);
    if (!traderBusy) renderTrader(traderMarkets);
    renderFault();
    if (byId('login-dialog').open && LOGIN_REASONS.includes(loginReason)) {
      byId('login-reason').textContent = tr(`loginReason_${loginReason}`);
    }
    // the cashier's amounts in the new language's money
    for (const amount of byId('amounts').querySelectorAll('label.amount')) {
      amount.querySelector('span').textContent = money(Number(amount.querySelector('input').value));
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void loadTrader();
  });
  // On a phone the language switch stays, as short codes (EN, PT, ES) that fit beside the balance; each option keeps
  // its language's name for assistive technology, after the code it shows ("PT, Português": the name starts with
  // the visible words, WCAG 2.5.3).
  const phone = window.matchMedia('(max-width: 599px)');
  const fitLanguages = () => {
    for (const option of byId('locale').options) {
      option.dataset.name ??= option.textContent;
      const code = option.value.split('-')[0].toUpperCase();
      option.textContent = phone.matches ? code : option.dataset.name;
      if (phone.matches) option.setAttribute('aria-label', `${code}, ${option.dataset.name}`);
      else option.removeAttribute('aria-label');
    }
  };
  phone.addEventListener('change', fitLanguages);
  fitLanguages();

  renderAccount();
  mount();
  void loadTrader();
  void loadFault();
})();
