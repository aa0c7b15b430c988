import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, type Sportsbook } from '../helpers/sportsbook.ts';
import { StatementSigner } from '../../src/wallet/partner/statement-signing.ts';
import { aDayOfMovements, AFTER_THE_DAY, getStatement, STATEMENT_DAY } from '../helpers/statements.ts';
import { createTenant } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/** The signed daily reconciliation statement (GET /api/v1/integration/statements/{day}) and its public keys. */
const fresh = freshSportsbookPerTest('statement-player', 1_000_00);
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => {
  ({ t, wallet, book, token, player } = fresh);
});

async function publishedKey(): Promise<{ keyId: string; publicKey: string }> {
  const response = await t.request('GET', '/api/v1/integration/statement-keys');
  assert.equal(response.status, 200, response.text);
  return response.body.keys.find((key: { current: boolean }) => key.current);
}

/** The OpenSSL command line tool (3.0 or later, for -rawin): OPENSSL names another one. */
const OPENSSL = process.env.OPENSSL ?? 'openssl';

const verifies = (bytes: Buffer, signature: string, pem: string) =>
  verify(null, bytes, createPublicKey(pem), Buffer.from(signature, 'base64'));

describe('the daily statement', () => {
  it('lists every movement that counted as applied that day, and its totals equal those movements', async () => {
    const day = await aDayOfMovements(t, book, wallet, token);
    t.clock.set(AFTER_THE_DAY);
    const response = await getStatement(t, book.tenant);
    assert.equal(response.status, 200, response.text);
    const statement = response.body;
    assert.deepEqual(
      [statement.format, statement.tenantId, statement.environment, statement.currency, statement.day],
      ['bookmaker-statement/1', book.tenant.tenantId, 'production', 'BRL', STATEMENT_DAY],
    );
    assert.deepEqual(statement.movements.map((m: { txId: string }) => m.txId).sort(), [...day.applied].sort());
    const rows = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('status', 'in', ['applied', 'resolved'])
      .execute();
    for (const movement of statement.movements) {
      const row = rows.find((r) => r.tx_id === movement.txId)!;
      assert.deepEqual(movement, {
        txId: row.tx_id,
        betId: row.bet_id,
        playerId: player,
        kind: row.kind,
        endpoint: row.endpoint,
        direction: row.endpoint === 'debit' ? 'debit' : 'credit',
        amount: row.amount,
        currency: 'BRL',
        ref: JSON.parse(row.body).ref ?? null,
        appliedAt: row.resolved_at!.toISOString(),
        status: 'applied',
      });
    }
    const lines = [
      ['bet', 'debit', 3, 18_00],
      ['payout', 'credit', 2, 21_00],
      ['refund', 'credit', 1, 3_00],
      ['cashout', 'credit', 0, 0],
      ['resettle', 'credit', 0, 0],
      ['resettle', 'debit', 0, 0],
      ['rollback', 'rollback', 1, 7_00],
      ['adjustment', 'credit', 0, 0],
      ['adjustment', 'debit', 0, 0],
    ];
    assert.deepEqual(
      statement.totals.map((total: Record<string, unknown>) => [
        total.kind,
        total.endpoint,
        total.movements,
        total.amount,
      ]),
      lines,
    );
    for (const total of statement.totals) {
      const its = statement.movements.filter(
        (m: { kind: string; endpoint: string }) => m.kind === total.kind && m.endpoint === total.endpoint,
      );
      assert.equal(total.movements, its.length);
      assert.equal(
        total.amount,
        its.reduce((sum: number, m: { amount: number }) => sum + m.amount, 0),
      );
    }
    assert.deepEqual(statement.summary, { movements: 7, debited: 18_00, credited: 31_00 });
    const rollback = statement.movements.find((m: { kind: string }) => m.kind === 'rollback');
    assert.equal(rollback.ref, `bet:${day.unknown}`, 'a rollback names the debit it reverses');
  });

  it('is signed over the exact bytes served: the signature verifies with the published key, and fails when a byte changes', async () => {
    await aDayOfMovements(t, book, wallet, token);
    t.clock.set(AFTER_THE_DAY);
    const key = await publishedKey();
    for (const query of ['', '?format=csv']) {
      const response = await getStatement(t, book.tenant, STATEMENT_DAY, query);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('x-statement-key-id'), key.keyId);
      const signature = response.headers.get('x-statement-signature')!;
      const bytes = Buffer.from(response.text, 'utf8');
      assert.ok(verifies(bytes, signature, key.publicKey), `${query || 'json'}: verifies`);
      for (const at of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
        const changed = Buffer.from(bytes);
        changed[at] = changed[at]! ^ 0x01;
        assert.equal(verifies(changed, signature, key.publicKey), false, `${query || 'json'}: byte ${at} changed`);
      }
      const otherSignature = Buffer.from(signature, 'base64');
      otherSignature[0] = otherSignature[0]! ^ 0x01;
      assert.equal(verifies(bytes, otherSignature.toString('base64'), key.publicKey), false);
    }
  });

  it('verifies with openssl as docs/reconciliation.md shows', async (context) => {
    // openssl is a system tool, not a dependency: where it is missing the test above verifies the same signature in
    // Node; here it checks that the docs' openssl command works as written (Debian, and CI, have it).
    if (spawnSync(OPENSSL, ['version']).status !== 0) return context.skip('no openssl on this machine');
    await aDayOfMovements(t, book, wallet, token);
    t.clock.set(AFTER_THE_DAY);
    const response = await getStatement(t, book.tenant);
    const dir = mkdtempSync(join(tmpdir(), 'statement-'));
    writeFileSync(join(dir, 'statement.json'), response.text);
    writeFileSync(join(dir, 'statement.sig'), Buffer.from(response.headers.get('x-statement-signature')!, 'base64'));
    writeFileSync(join(dir, 'key.pem'), (await publishedKey()).publicKey);
    const check = (file: string) =>
      spawnSync(
        OPENSSL,
        ['pkeyutl', '-verify', '-pubin', '-inkey', 'key.pem', '-rawin', '-in', file, '-sigfile', 'statement.sig'],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
    const good = check('statement.json');
    assert.equal(good.status, 0, good.stdout + good.stderr);
    writeFileSync(join(dir, 'changed.json'), response.text.replace('"amount": 1000', '"amount": 1001'));
    assert.notEqual(check('changed.json').status, 0);
  });

  it('says the same in CSV as in JSON', async () => {
    await aDayOfMovements(t, book, wallet, token);
    t.clock.set(AFTER_THE_DAY);
    const json = (await getStatement(t, book.tenant)).body;
    const csv = await getStatement(t, book.tenant, STATEMENT_DAY, '', { accept: 'text/csv' });
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(
      csv.headers.get('content-disposition')!,
      new RegExp(`statement-${book.tenant.tenantId}-${STATEMENT_DAY}\\.csv`),
    );
    assert.ok(csv.text.endsWith('\r\n'));
    const [header, ...lines] = csv.text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const rows = lines.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]])));
    assert.ok(rows.every((row) => row.tenantId === book.tenant.tenantId && row.day === STATEMENT_DAY));
    assert.deepEqual(
      rows
        .filter((row) => row.record === 'movement')
        .map((row) => ({
          txId: row.txId,
          betId: row.betId || null,
          playerId: row.playerId,
          kind: row.kind,
          endpoint: row.endpoint,
          direction: row.direction,
          amount: Number(row.amount),
          currency: row.currency,
          ref: row.ref || null,
          appliedAt: row.appliedAt,
          status: row.status,
        })),
      json.movements,
    );
    assert.deepEqual(
      rows
        .filter((row) => row.record === 'total')
        .map((row) => ({
          kind: row.kind,
          endpoint: row.endpoint,
          direction: row.direction,
          movements: Number(row.movements),
          amount: Number(row.amount),
        })),
      json.totals,
    );
  });

  it('never changes once served: the same bytes and signature, even after later money', async () => {
    const day = await aDayOfMovements(t, book, wallet, token);
    t.clock.set(AFTER_THE_DAY);
    const first = await getStatement(t, book.tenant);
    // New money the next day (an operator's adjustment) counts on that day, not on the one served.
    const playerId = (await t.db.selectFrom('bets').select('player_id').executeTakeFirstOrThrow()).player_id;
    const adjusted = await t.request('POST', '/api/v1/admin/adjustments', {
      token: (await loginAsStaff(t, 'platform_admin')).token,
      headers: { 'idempotency-key': 'next-day-adjustment-1' },
      body: { playerId, direction: 'credit', amount: 2_00, reason: 'goodwill the next day' },
    });
    assert.equal(adjusted.status, 201, adjusted.text);
    await drainDeliveries(t);
    const again = await getStatement(t, book.tenant);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('x-statement-signature'), first.headers.get('x-statement-signature'));
    t.clock.set('2026-03-03T00:06:00Z');
    const next = await getStatement(t, book.tenant, '2026-03-02');
    assert.deepEqual(
      next.body.movements.map((m: { kind: string }) => m.kind),
      ['adjustment'],
    );
    assert.ok(!next.body.movements.some((m: { txId: string }) => day.applied.includes(m.txId)));
  });

  it('is served once the day is over (and 5 minutes more); a day not of the calendar is refused', async () => {
    const early = await getStatement(t, book.tenant);
    assert.deepEqual(
      [early.status, early.body.error.code, early.body.error.details],
      [409, 'statement_not_ready', { day: STATEMENT_DAY, availableAt: '2026-03-02T00:05:00.000Z' }],
    );
    t.clock.set('2026-03-02T00:04:59Z');
    assert.equal((await getStatement(t, book.tenant)).status, 409);
    t.clock.set('2026-03-02T00:05:00Z');
    assert.equal((await getStatement(t, book.tenant)).status, 200);
    for (const day of ['2026-02-30', '2026-13-01', '0000-01-01', '2026-3-1', '20260301', '2026-03-01x']) {
      const response = await getStatement(t, book.tenant, day);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], day);
    }
    for (const query of ['?format=xml', '?tenantId=x']) {
      const response = await getStatement(t, book.tenant, STATEMENT_DAY, query);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
  });

  it("holds its own environment's movements only", async () => {
    await aDayOfMovements(t, book, wallet, token);
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    t.clock.set(AFTER_THE_DAY);
    const theirs = await getStatement(t, other);
    assert.equal(theirs.status, 200, theirs.text);
    assert.deepEqual([theirs.body.tenantId, theirs.body.movements], [other.tenantId, []]);
    assert.equal((await getStatement(t, book.tenant)).body.movements.length, 7);
    const noKey = await t.request('GET', `/api/v1/integration/statements/${STATEMENT_DAY}`, {
      headers: { 'x-tenant-id': book.tenant.tenantId },
    });
    assert.deepEqual([noKey.status, noKey.body.error.code], [401, 'unauthorized']);
  });
});

describe('the statement keys', () => {
  it('are public (no credential), with the current key first, and name the key statements carry', async () => {
    const response = await t.request('GET', '/api/v1/integration/statement-keys');
    assert.equal(response.status, 200);
    const [key] = response.body.keys;
    assert.deepEqual([key.algorithm, key.current], ['ed25519', true]);
    assert.equal(createPublicKey(key.publicKey).asymmetricKeyType, 'ed25519');
    assert.ok(!response.text.includes('PRIVATE'));
    t.clock.set(AFTER_THE_DAY);
    assert.equal((await getStatement(t, book.tenant)).body.keyId, key.keyId);
  });

  it('stay published after the secrets key rotates, so older statements still verify', () => {
    const before = new StatementSigner([Buffer.alloc(32, 1)]);
    const signature = before.sign('a statement');
    const rotated = new StatementSigner([Buffer.alloc(32, 2), Buffer.alloc(32, 1)]);
    const keys = rotated.published();
    assert.deepEqual(
      keys.map((key) => [key.keyId === before.keyId, key.current]),
      [
        [false, true],
        [true, false],
      ],
    );
    assert.ok(verifies(Buffer.from('a statement'), signature, keys[1]!.publicKey));
    assert.equal(verifies(Buffer.from('a statement'), signature, keys[0]!.publicKey), false);
    assert.ok(verifies(Buffer.from('a statement'), rotated.sign('a statement'), keys[0]!.publicKey));
  });
});
