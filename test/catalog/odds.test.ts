import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combinedOddsMilli, formatLine, formatMilli, parseMilli, potentialPayout } from '../../src/catalog/odds.ts';

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
    assert.equal(potentialPayout(1_000_000_000_000, [999_999, 999_999]), 999_998_000_001_000_000n, 'exact far beyond 2^53');
    assert.equal(combinedOddsMilli([2100, 3600]), 7560);
    assert.equal(combinedOddsMilli([1333, 1333, 1333]), 2368);
  });
});
