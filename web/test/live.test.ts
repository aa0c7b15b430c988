// What the lists and the event page show of a live event: the clock as fans read it (ui-shared/live-clock.ts), and
// an event's markets sorted into tabs (web/src/market-groups.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockReading, clockSeconds } from '../../ui-shared/live-clock.ts';
import { marketGroups, tabsWithMarkets } from '../src/market-groups.ts';
import type { LiveClock, Market } from '../src/types.ts';

const up = (seconds: number): LiveClock => ({ seconds, running: true, direction: 'up', setAt: '2026-03-10T15:00:00Z' });

describe('the live clock', () => {
  it('moves a running clock on from when it was set, up or down, never below zero', () => {
    const setAt = Date.parse('2026-03-10T15:00:00Z');
    assert.equal(clockSeconds(up(600), setAt + 61_500), 661);
    assert.equal(clockSeconds({ ...up(30), direction: 'down' }, setAt + 45_000), 0);
    assert.equal(clockSeconds({ ...up(600), running: false }, setAt + 61_500), 600);
  });

  it('reads time played in minutes as football fans do, with stoppage time after the regulation end', () => {
    assert.equal(clockReading(up(0), 'first_half', 0, 'en'), "1'");
    assert.equal(clockReading(up(0), 'second_half', 62 * 60 + 30, 'pt-BR'), "63'");
    assert.equal(clockReading(up(0), 'first_half', 46 * 60 + 10, 'en'), "45+2'");
    assert.equal(clockReading(up(0), 'second_half', 93 * 60, 'es'), "90+4'");
    assert.equal(clockReading(up(0), null, 95 * 60, 'en'), "96'");
  });

  it('reads time left as minutes and seconds', () => {
    assert.equal(clockReading({ ...up(0), direction: 'down' }, 'quarter_3', 432, 'pt-BR'), '7:12');
  });
});

describe('market tabs', () => {
  const market = (id: string, type: string, line: string | null = null): Market =>
    ({ id, type, line, status: 'open', settlementVersion: 0, selections: [] }) as unknown as Market;
  const markets = [
    market('cs', 'correct_score'),
    market('t35', 'totals', '3.5'),
    market('t15', 'totals', '1.5'),
    market('mr', 'match_result'),
    market('ht', 'half_time_result'),
    market('dc', 'double_chance'),
  ];

  it('shows all, then only the tabs that have markets, in the familiar order', () => {
    assert.deepEqual(tabsWithMarkets(markets), ['all', 'main', 'totals', 'periods', 'scores']);
  });

  it('groups a tab by type in the order players look for them, lines from the lowest', () => {
    const all = marketGroups(markets, 'all').map((group) => [group.type, group.markets.map((m) => m.id)]);
    assert.deepEqual(all, [
      ['match_result', ['mr']],
      ['double_chance', ['dc']],
      ['totals', ['t15', 't35']],
      ['half_time_result', ['ht']],
      ['correct_score', ['cs']],
    ]);
    assert.deepEqual(
      marketGroups(markets, 'main').map((group) => group.type),
      ['match_result', 'double_chance'],
    );
  });
});
