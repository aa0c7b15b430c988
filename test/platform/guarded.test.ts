// What a guard established, as a handler reads it (platform/http/auth.ts `guarded`), and Accept negotiation for
// exports (platform/http/csv.ts): pure functions, no server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { guarded } from '../../src/platform/http/auth.ts';
import { wantsCsv } from '../../src/platform/http/csv.ts';

const request = (fields: Partial<FastifyRequest>) => ({ ip: '198.51.100.7', headers: {}, ...fields }) as FastifyRequest;

describe('a handler reads what its guard established', () => {
  it('returns the principal the guard set', () => {
    const staff = { id: 'st_1', role: 'operator' } as FastifyRequest['staff'];
    assert.equal(guarded.staff(request({ staff })), staff);
    assert.deepEqual(guarded.staffCall(request({ staff })), { staff, ip: '198.51.100.7' });
  });

  it('a route without the guard is a wiring mistake that names the guard to add, not a request served as nobody', () => {
    assert.throws(() => guarded.staff(request({})), /put auth\.staff\(\) in its onRequest/);
    assert.throws(() => guarded.session(request({})), /put auth\.player\(\)/);
    assert.throws(() => guarded.tenant(request({})), /put auth\.tenantKey\(\)/);
    assert.throws(() => guarded.aggregator(request({})), /put auth\.aggregator\(\)/);
  });
});

describe('an export is CSV when asked by name, or by an Accept header naming text/csv and not JSON', () => {
  const cases: Array<[format: string | undefined, accept: string | undefined, csv: boolean]> = [
    ['csv', 'application/json', true],
    ['json', 'text/csv', false],
    [undefined, 'text/csv', true],
    [undefined, 'TEXT/CSV; charset=utf-8', true],
    [undefined, 'text/csv, application/json', false],
    [undefined, 'text/csvx', false],
    [undefined, '*/*', false],
    [undefined, undefined, false],
  ];
  for (const [format, accept, csv] of cases) {
    it(`format=${format ?? '(none)'}, Accept: ${accept ?? '(none)'} -> ${csv ? 'CSV' : 'JSON'}`, () => {
      assert.equal(wantsCsv(format, request({ headers: accept === undefined ? {} : { accept } })), csv);
    });
  }
});
