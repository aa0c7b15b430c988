/**
 * A new PGlite cluster runs initdb, which costs about a second of CPU: most of the start of a test file, of a
 * reference wallet in memory and of every server a test spawns. A new cluster starts instead from an image of a
 * fresh one (PGlite's `loadDataDir`, the same files initdb writes), made once per PGlite version and kept in a
 * folder of the temporary directory private to this user. The image is a cache: when it cannot be read or written,
 * the cluster is made by initdb as before.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ensurePrivateDir } from '../data-dir.ts';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')), 'utf8')) as {
    version: string;
  }
).version;
const usersFolder = join(tmpdir(), `bookmaker-${process.getuid?.() ?? 'user'}`);

let image: Promise<Blob | undefined> | undefined;

/** The image of a fresh cluster, made by this call if no process has made it yet; undefined if it cannot be had. */
export function freshClusterImage(): Promise<Blob | undefined> {
  image ??= clusterImageIn(usersFolder);
  return image;
}

/** The image kept in `folder`, made there if missing; undefined when the folder is not private or not writable. */
export async function clusterImageIn(folder: string): Promise<Blob | undefined> {
  try {
    return await readOrMakeImage(folder);
  } catch {
    return undefined;
  }
}

async function readOrMakeImage(folder: string): Promise<Blob> {
  ensurePrivateDir(folder, 'the PGlite image folder');
  const imagePath = join(folder, `pglite-${version}-fresh-cluster.tar`);
  try {
    return new Blob([readFileSync(imagePath)]);
  } catch {
    const cluster = await PGlite.create();
    const tarball = await cluster.dumpDataDir('none');
    await cluster.close();
    // Written under a name of its own, then renamed: a process reading the image never sees half of one.
    const partial = `${imagePath}.${randomBytes(6).toString('hex')}`;
    writeFileSync(partial, new Uint8Array(await tarball.arrayBuffer()), { mode: 0o600 });
    try {
      renameSync(partial, imagePath);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    return tarball;
  }
}
