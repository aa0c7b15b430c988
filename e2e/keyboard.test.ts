// Every flow of the sportsbook app by keyboard alone, in headless Chromium against the real service: a bet from the
// home page to its receipt and its cash-out, the market tabs, the odds format and the slip's odds-change choice; and
// the cash-out offers of My Bets following the odds while the page is open.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { playerWithBalance } from '../test/helpers/sportsbook.ts';
import { stackAndBrowser } from './helpers/fixture.ts';

const { stack, browser, skip } = stackAndBrowser();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** The open lists are read every PAGE_POLL_MS (5 s, web/src/poll.ts): a change shows within two reads. */
const TWO_POLLS_MS = 12_000;

async function open(params: Record<string, string>, viewport = PHONE): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(stack.appUrl(params));
  return page;
}

/** What has focus, for failure messages: its tag and its name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'the body';
    const name = active.getAttribute('aria-label') ?? active.textContent ?? '';
    return `<${active.tagName.toLowerCase()}> "${name.trim().slice(0, 60)}"`;
  });

const hasFocus = (target: Locator) =>
  target.evaluateAll((elements) => elements.includes(document.activeElement as HTMLElement));

/** Presses Tab (Shift+Tab with `back`) until `target` has focus, at most `limit` times. */
async function tabTo(target: Locator, { back = false, limit = 60 } = {}): Promise<void> {
  const page = target.page();
  await target.first().waitFor();
  for (let presses = 0; presses < limit; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  if (await hasFocus(target)) return;
  assert.fail(
    `${limit} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${String(target)}: ${await focused(page)}`,
  );
}

/**
 * The focused element shows the theme's focus colour (--bm-color-focus): its own :focus-visible outline, or the ring
 * its field or label draws around it (the stake field, the search box, the odds-change choice).
 */
async function assertFocusVisible(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return false;
    const hex = getComputedStyle(document.documentElement).getPropertyValue('--bm-color-focus').trim();
    const colour = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ');
    const box = active.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) return false;
    for (let node: HTMLElement | null = active, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
      const style = getComputedStyle(node);
      if (style.opacity === '0') continue;
      if (style.outlineStyle !== 'none' && style.outlineColor.includes(colour)) return true;
      if (style.boxShadow.includes(colour)) return true;
    }
    return false;
  });
  assert.ok(ring, `no visible focus ring on ${await focused(page)}`);
}

/**
 * Content replaced under the keyboard (a new page, the receipt, a cash-out step) hands the focus to `target` once it
 * is drawn, rather than dropping it on the body.
 */
async function assertFocusMovesTo(target: Locator): Promise<void> {
  const page = target.page();
  await target.first().waitFor();
  for (let tries = 0; tries < 40 && !(await hasFocus(target)); tries++) await page.waitForTimeout(50);
  assert.ok(await hasFocus(target), `focus is on ${await focused(page)}, not on ${String(target)}`);
}

/** Formats minor units as the app does for the locale, in BRL. */
const money = (page: Page, minor: number) =>
  page.evaluate(
    (amount) =>
      new Intl.NumberFormat(document.documentElement.lang, { style: 'currency', currency: 'BRL' }).format(amount / 100),
    minor,
  );

async function cashOutOffer(token: string, betId: string): Promise<number> {
  const response = await stack.t.request('GET', `/api/v1/bets/${betId}/cashout`, { token });
  assert.equal(response.status, 200, response.text);
  return response.body.offer.amount as number;
}

describe('the sportsbook by keyboard', { skip }, () => {
  it('a bet from the home page to its receipt, and its cash-out from My Bets, with focus always shown', async () => {
    const [event] = stack.book.events;
    const launch = await stack.launchToken('keyboard-bettor', { balance: 100_000 });
    const page = await open({ launch, locale: 'en' });
    await page.locator('.balance-amount').waitFor();

    // home: search for the team, then the event's row among the results; the event page takes the focus to its heading
    await tabTo(page.getByRole('searchbox', { name: 'Search teams and competitions' }));
    await assertFocusVisible(page);
    await page.keyboard.type('palmeiras');
    const results = page.locator('.search-results[aria-busy="false"]');
    const row = results.locator('.event-row', { has: page.locator(`[data-selection="${event!.home}"]`) });
    await tabTo(row.locator('.event-link'));
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    await assertFocusMovesTo(page.getByRole('heading', { level: 1, name: 'Flamengo v Palmeiras' }));
    await assertFocusVisible(page);

    // the event: Space adds the draw to the slip
    const draw = page.locator(`[data-selection="${event!.draw}"]`);
    await tabTo(draw);
    await assertFocusVisible(page);
    await page.keyboard.press('Space');
    assert.equal(await draw.getAttribute('aria-pressed'), 'true');

    // the slip, a modal sheet on a phone: a stake, Place bet, the receipt's Done, the empty slip's heading
    await tabTo(page.getByRole('button', { name: /^Bet slip, 1 / }));
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: /^Bet slip/ });
    await assertFocusMovesTo(sheet);
    await tabTo(sheet.getByLabel('Stake for Draw'));
    await assertFocusVisible(page);
    await page.keyboard.type('10');
    await tabTo(sheet.getByRole('button', { name: 'Place bet R$10.00' }));
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    await sheet.getByText('Bet placed').waitFor();
    await assertFocusMovesTo(sheet.getByRole('button', { name: 'Done' }));
    await assertFocusVisible(page);
    await page.locator('.balance-amount', { hasText: 'R$990.00' }).waitFor();
    await page.keyboard.press('Enter');
    await sheet.getByText('Your bet slip is empty').waitFor();
    await assertFocusMovesTo(sheet.getByRole('heading', { name: 'Bet slip' }));
    await assertFocusVisible(page);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    await assertFocusMovesTo(page.locator('#slip-toggle'));

    // My Bets (the navigation button keeps the focus): Cash out, then its confirmation, take the whole bet back
    const myBets = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'My bets' });
    await tabTo(myBets, { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'My bets' }).waitFor();
    assert.ok(await hasFocus(myBets), `focus moved to ${await focused(page)}`);
    const card = page.getByRole('article').filter({ hasText: 'Flamengo v Palmeiras' });
    await tabTo(card.getByRole('button', { name: /^Cash out R\$/ }));
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    // the confirmation opens on Cancel (a held Enter cashes nothing out); Tab reaches Confirm
    await assertFocusMovesTo(card.getByRole('button', { name: 'Cancel' }));
    await assertFocusVisible(page);
    const confirm = card.getByRole('button', { name: /^Confirm cash-out of R\$/ });
    await page.keyboard.press('Tab');
    assert.ok(await hasFocus(confirm), `focus moved to ${await focused(page)}`);
    await assertFocusVisible(page);
    const amount = (await confirm.textContent())!.replace('Confirm cash-out of ', '');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: `Cashed out ${amount}` }).waitFor();
    await assertFocusMovesTo(page.getByRole('heading', { level: 1, name: 'My bets' }));
    await page.getByText('You have no open bets.').waitFor();
    assert.equal(await hasFocus(page.getByRole('heading', { level: 1, name: 'My bets' })), true);
    assert.equal(await stack.wallet.balanceOf('keyboard-bettor'), 99_000 + Number(amount.replace(/\D/g, '')));
    await page.close();
  });

  it('market tabs, market groups, the odds format and the odds-change choice answer to the keyboard', async () => {
    const page = await open({ locale: 'pt-BR', path: '/event/ev-libertadores-1' }, DESKTOP);
    await page.getByRole('heading', { level: 1, name: 'River Plate x Boca Juniors' }).waitFor();
    const tabs = page.getByRole('tablist', { name: 'Grupos de mercados' });
    const selected = async () => (await tabs.getByRole('tab', { selected: true }).textContent()) ?? '';
    assert.deepEqual(await tabs.getByRole('tab').allTextContents(), [
      'Todos',
      'Principais',
      'Totais',
      'Handicaps',
      'Tempos',
      'Placares',
    ]);

    // only the chosen tab is in the Tab order; the arrows choose, round the ends, and Home and End go to them
    await tabTo(tabs.getByRole('tab', { name: 'Todos' }));
    await assertFocusVisible(page);
    await page.keyboard.press('End');
    assert.equal(await selected(), 'Placares');
    await page.keyboard.press('ArrowRight');
    assert.equal(await selected(), 'Todos');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await selected(), 'Placares');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    assert.equal(await selected(), 'Principais');
    assert.ok(await hasFocus(tabs.getByRole('tab', { name: 'Principais' })), `focus on ${await focused(page)}`);
    await assertFocusVisible(page);
    await page.getByRole('heading', { level: 2, name: 'Resultado final' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 2, name: 'Placar exato' }).count(), 0);

    // Tab goes on into the panel: a market group folds with Enter and opens again with Space
    const toggle = page.getByRole('button', { name: /^Resultado final/ });
    await tabTo(toggle);
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Space');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');

    // into the slip, the side column of a desktop: the price in decimals, then as a fraction, here and on the page
    const river = page.locator('#group-match_result').getByRole('button', { name: /^River Plate \d/ });
    await tabTo(river);
    await page.keyboard.press('Enter');
    const slip = page.getByRole('complementary', { name: 'Cupom' });
    const price = slip.locator('.slip-price');
    assert.match((await price.textContent()) ?? '', /^\d+,\d\d$/);
    const format = slip.getByLabel('Formato das odds');
    await tabTo(format);
    await assertFocusVisible(page);
    assert.equal(await format.inputValue(), 'decimal');
    await page.keyboard.press('ArrowDown');
    assert.equal(await format.inputValue(), 'fractional');
    await price.filter({ hasText: /^\d+\/\d+$/ }).waitFor({ timeout: 1000 });
    assert.equal(await price.textContent(), await river.locator('.odds-price').textContent());

    // the odds-change choice: one radio in the Tab order, the arrows move the choice
    const choice = slip.getByRole('group', { name: 'Quando as odds mudarem' });
    await tabTo(choice.getByRole('radio', { checked: true }), { back: true });
    await assertFocusVisible(page);
    assert.ok(await choice.getByRole('radio', { name: 'Aceitar maiores' }).isChecked());
    await page.keyboard.press('ArrowRight');
    assert.ok(await choice.getByRole('radio', { name: 'Aceitar todas' }).isChecked());
    await assertFocusVisible(page);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.ok(await choice.getByRole('radio', { name: 'Perguntar sempre' }).isChecked());
    await page.close();
  });
});

describe('My Bets left open', { skip }, () => {
  it('shows the cash-out offer the service makes once the odds move, without the player doing anything', async () => {
    // an event of this test's own: it moves the price
    const event = await stack.newEvent('Coritiba', 'Avaí');
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'keyboard-watcher', 100_000);
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: 'keyboard-watcher-1', stake: 1000, legs: [{ selectionId: event.home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const betId = placed.body.bet.id as string;

    const page = await open({ launch: await stack.launchToken('keyboard-watcher'), locale: 'en', path: '/my-bets' });
    const card = page.getByRole('article').filter({ hasText: 'Coritiba v Avaí' });
    const before = await cashOutOffer(token, betId);
    await card.getByRole('button', { name: `Cash out ${await money(page, before)}` }).waitFor();

    // Coritiba shorten: the bet is worth more, and the page shows the service's new offer by itself
    assert.equal((await stack.setOdds(event.home, '1.50')).status, 200);
    const after = await cashOutOffer(token, betId);
    assert.ok(after > before, `offer ${before} → ${after}`);
    await card.getByRole('button', { name: `Cash out ${await money(page, after)}` }).waitFor({ timeout: TWO_POLLS_MS });
    await page.close();
  });
});
