// The bet slip's rules as tables (web/src/betslip/slip-rules.ts): the bets a slip makes of its selections, what they
// pay and what they total, a held price, a new price under each choice of odds changes, where a selection stands after
// fresh catalog data, and the odds text the slip keeps. Pure: no store, no browser, no request; slip.test.ts drives the
// same rules through the slip's state, and checks the arithmetic against the service's.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { currencyStore } from '../src/i18n/index.ts';
import {
  ACCA,
  accaPossible,
  betPayout,
  hasOddsChanges,
  isDecimalOdds,
  itemStatus,
  repriced,
  slipBets,
  slipTotals,
  type OddsAcceptance,
  type SlipBet,
  type SlipItem,
} from '../src/betslip/slip-rules.ts';
import type { EventStatus, Market } from '../src/types.ts';

/** A selection of the slip: its event, current and accepted price, and the stake typed for its single. */
function item(
  n: number,
  { eventId = `ev_${n}`, odds = '2.00', accepted = odds, stakeText = '' }: Partial<SlipItem> = {},
): SlipItem {
  return {
    selectionId: `se_${n}`,
    eventId,
    home: 'Santos',
    away: 'Grêmio',
    startsAt: '2026-03-11T20:00:00Z',
    live: false,
    delaySeconds: 0,
    marketType: 'match_result',
    line: null,
    selectionName: 'Santos',
    odds,
    accepted,
    status: 'open',
    stakeText,
  };
}

before(() => currencyStore.set('BRL'));

describe('an accumulator', () => {
  const cases: Array<[string, string[], boolean]> = [
    // name, the events of the slip's selections, whether they make an accumulator
    ['no selection', [], false],
    ['one selection: a single only', ['ev_1'], false],
    ['two events', ['ev_1', 'ev_2'], true],
    ['two selections of one event', ['ev_1', 'ev_1'], false],
    ['three, two of them of one event', ['ev_1', 'ev_2', 'ev_1'], false],
    ['twenty events', Array.from({ length: 20 }, (_, n) => `ev_${n}`), true],
  ];
  for (const [name, events, expected] of cases) {
    it(name, () => assert.equal(accaPossible(events.map((eventId, n) => item(n, { eventId }))), expected));
  }
});

describe('the bets of a slip', () => {
  const cases: Array<[string, Array<[eventId: string, stakeText: string]>, string, Array<[string, number | null]>]> = [
    // name, the selections (event, single's stake), the accumulator's stake, the bets (key, stake in minor units)
    ['one selection, staked', [['ev_1', '10']], '', [['se_0', 10_00]]],
    ['one selection without a stake: a bet not staked', [['ev_1', '']], '', [['se_0', null]]],
    ['one selection: no accumulator, whatever its stake says', [['ev_1', '10']], '5', [['se_0', 10_00]]],
    [
      'two events: the singles, then the accumulator',
      [
        ['ev_1', '10'],
        ['ev_2', ''],
      ],
      '2,50',
      [
        ['se_0', 10_00],
        ['se_1', null],
        [ACCA, 2_50],
      ],
    ],
    [
      'two selections of one event: singles only',
      [
        ['ev_1', '1'],
        ['ev_1', '2'],
      ],
      '5',
      [
        ['se_0', 1_00],
        ['se_1', 2_00],
      ],
    ],
    [
      'a stake that is no positive amount is no stake',
      [
        ['ev_1', '0'],
        ['ev_2', 'ten'],
      ],
      '-',
      [
        ['se_0', null],
        ['se_1', null],
        [ACCA, null],
      ],
    ],
  ];
  for (const [name, selections, accaStakeText, expected] of cases) {
    it(name, () => {
      const items = selections.map(([eventId, stakeText], n) => item(n, { eventId, stakeText }));
      const bets = slipBets({ items, accaStakeText });
      assert.deepEqual(
        bets.map((bet) => [bet.key, bet.stake]),
        expected,
      );
      // a single holds its selection; the accumulator, every selection
      for (const bet of bets) {
        assert.deepEqual(bet.items, bet.key === ACCA ? items : items.filter((i) => i.selectionId === bet.key));
      }
    });
  }
});

describe('what a bet pays', () => {
  const cases: Array<[string, number | null, Array<[odds: string, accepted: string]>, number]> = [
    // name, the stake, its legs' current and accepted odds, the payout
    ['no stake: nothing', null, [['2.10', '2.10']], 0],
    ['a single: floor(stake x odds)', 10_00, [['2.10', '2.10']], 21_00],
    ['a single, floored', 3_33, [['1.5', '1.5']], 4_99],
    [
      'an accumulator: the legs’ product, floored once',
      2_50,
      [
        ['2.10', '2.10'],
        ['3.60', '3.60'],
        ['1.333', '1.333'],
      ],
      25_19,
    ],
    ['at the current odds, not the accepted ones', 10_00, [['3.40', '3.60']], 34_00],
  ];
  for (const [name, stake, legs, expected] of cases) {
    it(name, () => {
      const bet: SlipBet = {
        key: 'se_0',
        stake,
        items: legs.map(([odds, accepted], n) => item(n, { odds, accepted })),
      };
      assert.equal(betPayout(bet), expected);
    });
  }
});

describe('the totals of a slip', () => {
  const cases: Array<[string, Array<[odds: string, stakeText: string]>, string, ReturnType<typeof slipTotals>]> = [
    // name, the selections (odds, single's stake), the accumulator's stake, the totals
    ['nothing staked', [['2.10', '']], '', { count: 0, stake: 0, payout: 0 }],
    ['one single', [['2.10', '10']], '', { count: 1, stake: 10_00, payout: 21_00 }],
    [
      'singles and the accumulator, each at its own odds',
      [
        ['2.10', '10'],
        ['3.60', ''],
        ['1.333', '1'],
      ],
      '2,50',
      { count: 3, stake: 13_50, payout: 21_00 + 1_33 + 25_19 },
    ],
    [
      'the accumulator alone',
      [
        ['2.10', ''],
        ['3.60', ''],
      ],
      '5',
      { count: 1, stake: 5_00, payout: 37_80 },
    ],
  ];
  for (const [name, selections, accaStakeText, expected] of cases) {
    it(name, () => {
      const items = selections.map(([odds, stakeText], n) => item(n, { odds, stakeText }));
      assert.deepEqual(slipTotals({ items, accaStakeText }), expected);
    });
  }
});

describe('a price the player has not accepted', () => {
  const cases: Array<[string, Array<[odds: string, accepted: string]>, boolean]> = [
    // name, the selections' current and accepted odds, whether the slip holds a change
    ['an empty slip', [], false],
    ['every price accepted', [['2.10', '2.10']], false],
    [
      'one moved and held',
      [
        ['2.10', '2.10'],
        ['3.40', '3.60'],
      ],
      true,
    ],
  ];
  for (const [name, prices, expected] of cases) {
    it(name, () =>
      assert.equal(hasOddsChanges(prices.map(([odds, accepted], n) => item(n, { odds, accepted }))), expected),
    );
  }
});

describe('a new price, under each choice of odds changes', () => {
  const cases: Array<
    [string, OddsAcceptance, [odds: string, accepted: string], string, [string, string] | 'unchanged']
  > = [
    // name, the choice, the selection's current and accepted odds, the new price, then its odds and accepted odds
    ['the same price: nothing changes', 'none', ['2.10', '2.10'], '2.10', 'unchanged'],
    ['none: a better price is held', 'none', ['2.10', '2.10'], '2.40', ['2.40', '2.10']],
    ['none: a price back to the accepted one stands', 'none', ['2.40', '2.10'], '2.10', ['2.10', '2.10']],
    ['higher: a better price is accepted', 'higher', ['2.10', '2.10'], '2.40', ['2.40', '2.40']],
    ['higher: a worse price is held', 'higher', ['2.10', '2.10'], '1.90', ['1.90', '2.10']],
    ['higher: better than the accepted one, after a held fall', 'higher', ['1.90', '2.10'], '2.20', ['2.20', '2.20']],
    ['any: a worse price is accepted', 'any', ['2.10', '2.10'], '1.50', ['1.50', '1.50']],
  ];
  for (const [name, acceptance, [odds, accepted], price, expected] of cases) {
    it(name, () => {
      const before = item(0, { odds, accepted });
      const after = repriced(before, price, acceptance);
      if (expected === 'unchanged') return assert.equal(after, before);
      assert.deepEqual(after, { ...before, odds: expected[0], accepted: expected[1], previous: odds });
    });
  }
});

describe('where a selection stands after fresh catalog data', () => {
  const cases: Array<[Market['status'] | 'gone', EventStatus, SlipItem['status']]> = [
    // the selection's market (gone: not in a complete read of the event), the event, where the selection stands
    ['open', 'scheduled', 'open'],
    ['open', 'live', 'open'],
    ['suspended', 'scheduled', 'suspended'],
    ['suspended', 'live', 'suspended'],
    ['closed', 'live', 'unavailable'],
    ['settled', 'live', 'unavailable'],
    ['gone', 'live', 'unavailable'],
    ['open', 'finished', 'unavailable'],
    ['open', 'cancelled', 'unavailable'],
    ['suspended', 'finished', 'unavailable'],
  ];
  for (const [marketStatus, eventStatus, expected] of cases) {
    it(`a market ${marketStatus}, the event ${eventStatus}: ${expected}`, () => {
      const market =
        marketStatus === 'gone'
          ? undefined
          : ({ id: 'mk_1', type: 'match_result', name: 'Match result', line: null, status: marketStatus } as Market);
      assert.equal(itemStatus(market, eventStatus), expected);
    });
  }
});

describe('the odds text the slip keeps', () => {
  const cases: Array<[unknown, boolean]> = [
    ['2.1', true],
    ['2.10', true],
    ['10.125', true],
    ['2', true],
    ['9999.999', true],
    ['10000', false],
    ['2.1234', false],
    ['2,10', false],
    ['.5', false],
    ['2.', false],
    ['', false],
    [' 2.10', false],
    [2.1, false],
    [null, false],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)}: ${expected ? 'odds' : 'not odds'}`, () =>
      assert.equal(isDecimalOdds(value), expected));
  }
});
