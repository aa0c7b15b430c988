import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { clusterImageIn } from '../../src/platform/db/pglite-image.ts';

const folders: string[] = [];
const newFolder = () => {
  const parent = mkdtempSync(join(tmpdir(), 'bookmaker-image-test-'));
  folders.push(parent);
  return join(parent, 'images');
};
const clusters: PGlite[] = [];
after(() => Promise.all(clusters.map((cluster) => cluster.close())));

async function openFrom(image: Blob): Promise<PGlite> {
  const cluster = await PGlite.create({ loadDataDir: image });
  clusters.push(cluster);
  return cluster;
}

describe('a fresh PGlite cluster started from an image instead of initdb', () => {
  it('is made once in a folder private to this user, and read from there afterwards', async () => {
    const folder = newFolder();
    const made = await clusterImageIn(folder);
    assert.ok(made);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    const files = readdirSync(folder);
    assert.equal(files.length, 1, 'one image, no partial file left beside it');
    assert.match(files[0]!, /^pglite-\d+\.\d+\.\d+-fresh-cluster\.tar$/);
    assert.equal(statSync(join(folder, files[0]!)).mode & 0o777, 0o600);
    const read = await clusterImageIn(folder);
    assert.deepEqual(new Uint8Array(await read!.arrayBuffer()), new Uint8Array(await made.arrayBuffer()));
  });

  it('is an empty cluster: no table of ours, and every table can be made in it', async () => {
    const cluster = await openFrom((await clusterImageIn(newFolder()))!);
    const { rows } = await cluster.query<{ tables: number }>(
      "select count(*)::int as tables from pg_tables where schemaname = 'public'",
    );
    assert.deepEqual(rows, [{ tables: 0 }]);
    await cluster.exec('create table marker (id int primary key)');
    await cluster.exec('insert into marker values (1)');
    assert.deepEqual((await cluster.query('select id from marker')).rows, [{ id: 1 }]);
  });

  it('gives every cluster its own copy: what one writes, another started from the same image does not see', async () => {
    const image = (await clusterImageIn(newFolder()))!;
    const first = await openFrom(image);
    await first.exec('create table only_in_first (id int)');
    const second = await openFrom(image);
    const { rows } = await second.query("select to_regclass('only_in_first') as found");
    assert.deepEqual(rows, [{ found: null }]);
  });

  it('is not used from a folder open to other users: the cluster is then made by initdb', async () => {
    const folder = newFolder();
    await clusterImageIn(folder);
    chmodSync(folder, 0o755);
    assert.equal(await clusterImageIn(folder), undefined);
  });
});

after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
