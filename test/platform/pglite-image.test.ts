import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { clusterImageIn, createPgliteFrom } from '../../src/platform/db/pglite-image.ts';

const folders: string[] = [];
const newFolder = () => {
  const parent = mkdtempSync(join(tmpdir(), 'bookmaker-image-test-'));
  folders.push(parent);
  return join(parent, 'images');
};
/** An empty directory, as the service and the wallet make one before they open their database in it. */
const newDataDir = () => {
  const dataDir = newFolder();
  mkdirSync(dataDir, { mode: 0o700 });
  return dataDir;
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

  it('starts a cluster in a new directory, which is opened afterwards as it was left', async () => {
    const image = (await clusterImageIn(newFolder()))!;
    const dataDir = newDataDir();
    const first = await createPgliteFrom(async () => image, { dataDir });
    await first.exec('create table kept (id int); insert into kept values (7)');
    await first.close();
    let asked = 0;
    const again = await createPgliteFrom(
      async () => {
        asked += 1;
        return image;
      },
      { dataDir },
    );
    clusters.push(again);
    assert.equal(asked, 0, 'a directory holding a cluster is opened, never loaded over');
    assert.deepEqual((await again.query('select id from kept')).rows, [{ id: 7 }]);
  });

  it('falls back to initdb when the image is cut short, in the directory the failed start was emptied of', async () => {
    const dataDir = newDataDir();
    const image = (await clusterImageIn(newFolder()))!;
    const damaged = image.slice(0, image.size / 2);
    const cluster = await createPgliteFrom(async () => damaged, { dataDir });
    clusters.push(cluster);
    await cluster.exec('create table made (id int); insert into made values (1)');
    assert.deepEqual((await cluster.query('select id from made')).rows, [{ id: 1 }]);
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
