import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cashOutValue,
  combinedOddsMilli,
  formatLine,
  formatMilli,
  parseMilli,
  potentialPayout,
  settledReturn,
} from '../../src/catalog/odds.ts';

describe('odds are exact thousandths', () => {
  it('parses decimal text without floats', () => {
    assert.equal(parseMilli('2.15'), 2150);
    assert.equal(parseMilli('2.1'), 2100);
    assert.equal(parseMilli('2'), 2000);
    assert.equal(parseMilli('1.005'), 1005);
    assert.equal(parseMilli('-1.5'), -1500);
    assert.throws(() => parseMilli('2.1555'));
    assert.throws(() => parseMilli('1e3'));
  });

  it('shows at least two decimals and no needless zeros', () => {
    assert.deepEqual([2150, 2125, 3000, 1010, 1005].map(formatMilli), ['2.15', '2.125', '3.00', '1.01', '1.005']);
    assert.deepEqual([2500, -1500, -1000, 0, 221500].map(formatLine), ['2.5', '-1.5', '-1', '0', '221.5']);
  });

  it('payout = floor(stake x odds), the product of the legs for accumulators, never rounded on the way', () => {
    assert.equal(potentialPayout(1000, [2150]), 2150n);
    assert.equal(potentialPayout(333, [2100, 3600]), 2517n);
    assert.equal(potentialPayout(1, [1005]), 1n);
    assert.equal(potentialPayout(999, [1001, 1001, 1001]), 1001n);
    assert.equal(
      potentialPayout(1_000_000_000_000, [999_999, 999_999]),
      999_998_000_001_000_000n,
      'exact far beyond 2^53',
    );
    assert.equal(combinedOddsMilli([2100, 3600]), 7560);
    assert.equal(combinedOddsMilli([1333, 1333, 1333]), 2368);
  });
});

describe('the payout rule with results (the worked examples of docs/settlement.md)', () => {
  const leg = (oddsMilli: number, result: Parameters<typeof settledReturn>[1][number]['result']) => ({
    oddsMilli,
    result,
  });

  it('a single: won pays floor(stake x odds), lost pays 0, void returns the stake', () => {
    assert.equal(settledReturn(10_00, [leg(2100, 'won')]), 21_00);
    assert.equal(settledReturn(10_00, [leg(2100, 'lost')]), 0);
    assert.equal(settledReturn(10_00, [leg(2100, 'void')]), 10_00);
  });

  it('an accumulator: void legs drop out of the odds, a lost leg makes it 0, all void returns the stake', () => {
    assert.equal(settledReturn(10_00, [leg(2100, 'won'), leg(3600, 'won')]), 75_60);
    assert.equal(settledReturn(10_00, [leg(2100, 'void'), leg(3600, 'won')]), 36_00);
    assert.equal(settledReturn(10_00, [leg(2100, 'lost'), leg(3600, 'won')]), 0);
    assert.equal(settledReturn(10_00, [leg(2100, 'void'), leg(3600, 'void')]), 10_00);
  });

  it('quarter lines: half won pays half at the odds and returns half; half lost returns half', () => {
    assert.equal(settledReturn(10_00, [leg(1900, 'half_won')]), 14_50);
    assert.equal(settledReturn(10_00, [leg(1900, 'half_lost')]), 5_00);
    assert.equal(settledReturn(3_33, [leg(1875, 'half_won')]), 4_78, '333 x 2.875 / 2 = 478.69, floored');
  });

  it('half legs in an accumulator multiply like any other, floored once at the end', () => {
    assert.equal(settledReturn(10_00, [leg(1900, 'half_won'), leg(2100, 'won')]), 30_45);
    assert.equal(settledReturn(10_00, [leg(1875, 'half_won'), leg(2100, 'won')]), 30_18, '3018.75 floored');
    assert.equal(settledReturn(10_00, [leg(1900, 'half_lost'), leg(2100, 'won'), leg(3000, 'void')]), 10_50);
  });

  it('every leg won is exactly the potential payout', () => {
    for (const odds of [[1001], [2150, 3333], [1005, 1005, 1005, 1005]]) {
      const stake = 9_99;
      assert.equal(
        BigInt(
          settledReturn(
            stake,
            odds.map((o) => leg(o, 'won')),
          ),
        ),
        potentialPayout(stake, odds),
      );
    }
  });
});

describe('the cash-out rule', () => {
  it('offers the stake x placed odds / current odds, less the margin, floored', () => {
    assert.equal(cashOutValue(10_00, [{ oddsMilli: 2100, currentOddsMilli: 1500 }], 500), 13_30);
    assert.equal(cashOutValue(10_00, [{ oddsMilli: 2100, currentOddsMilli: 2100 }], 500), 9_50);
    assert.equal(cashOutValue(10_00, [{ oddsMilli: 2100, currentOddsMilli: 4200 }], 0), 5_00);
  });

  it('settled legs of an accumulator count at their result, open ones at their current price', () => {
    const legs = [
      { oddsMilli: 2100, result: 'won' as const },
      { oddsMilli: 3600, currentOddsMilli: 1800 },
    ];
    assert.equal(cashOutValue(10_00, legs, 500), 39_90);
    assert.equal(cashOutValue(10_00, [{ oddsMilli: 2100, result: 'void' as const }, legs[1]!], 500), 19_00);
  });
});
