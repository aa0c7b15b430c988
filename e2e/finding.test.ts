// Finding things in the sportsbook app, in headless Chromium against the real service: search for teams and
// competitions, and favourites kept on the server so they follow the player to another device.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { stackAndBrowser } from './helpers/fixture.ts';

const { stack, browser, skip } = stackAndBrowser({ demo: false });
const PHONE = { width: 390, height: 844 };

async function open(params: Record<string, string>): Promise<Page> {
  const page = await browser.newPage({ viewport: PHONE });
  await page.goto(stack.appUrl({ locale: 'pt-BR', ...params }));
  return page;
}

describe('finding things', { skip }, () => {
  it('search finds teams and competitions whatever the accents and case, and clearing it brings home back', async () => {
    const page = await open({});
    const search = page.getByRole('searchbox', { name: 'Buscar times e competições' });
    await search.fill('g');
    await page.getByText('Digite pelo menos 2 letras.').waitFor();
    await search.fill('GREMIO');
    const results = page.locator('.search-results');
    await results.locator('.event-row', { hasText: 'Grêmio' }).first().waitFor();
    await search.fill('brasileirao');
    // the competition, not an event row of an earlier search still shown while this one runs
    await results.locator('.search-competition', { hasText: 'Brasileirão Série A' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Brasileirão Série A' }).waitFor();
    await page.getByRole('button', { name: 'Voltar' }).click();
    await page.getByRole('searchbox').fill('zzzz');
    await page.getByText('Nada encontrado para “zzzz”.').waitFor();
    await page.getByRole('searchbox').fill('');
    await page.getByRole('heading', { name: 'Ao vivo agora' }).waitFor();
    await page.close();
  });

  it('a favourite event is kept by the server: it shows on home, and on another device after a new launch', async () => {
    await stack.wallet.addPlayer('finder', 10_000, 'BRL');
    const [event] = stack.book.events;
    const phone = await open({ launch: await stack.launchToken('finder'), path: `/event/${event!.id}` });
    const star = phone.getByRole('button', { name: 'Adicionar Flamengo x Palmeiras aos favoritos' });
    await star.click();
    await phone.getByRole('button', { name: 'Remover Flamengo x Palmeiras dos favoritos' }).waitFor();
    await phone.close();

    const tablet = await open({ launch: await stack.launchToken('finder') });
    const favourites = tablet.locator('.event-group', { has: tablet.getByRole('heading', { name: 'Favoritos' }) });
    await favourites.locator('.event-row', { hasText: 'Flamengo' }).waitFor();
    assert.equal(await favourites.locator('.event-row').count(), 1);

    // removed on this device, gone from home
    await favourites.locator('.event-link').click();
    await tablet.getByRole('button', { name: 'Remover Flamengo x Palmeiras dos favoritos' }).click();
    await tablet.getByRole('button', { name: 'Adicionar Flamengo x Palmeiras aos favoritos' }).waitFor();
    await tablet.getByRole('button', { name: 'Voltar' }).click();
    await tablet.getByRole('heading', { name: 'Ao vivo agora' }).waitFor();
    assert.equal(await tablet.getByRole('heading', { name: 'Favoritos' }).count(), 0);
    await tablet.close();
  });

  it('an anonymous player who taps a star is asked to log in, and nothing is kept', async () => {
    const [event] = stack.book.events;
    const page = await open({ path: `/event/${event!.id}` });
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/favourites')) writes.push(`${request.method()} ${request.url()}`);
    });
    await page.getByRole('button', { name: 'Adicionar Flamengo x Palmeiras aos favoritos' }).click();
    await page.getByRole('button', { name: 'Adicionar Flamengo x Palmeiras aos favoritos' }).waitFor();
    assert.deepEqual(writes, []);
    await page.close();
  });
});
