/**
 * A new PGlite cluster runs initdb, which costs one to two seconds of CPU: most of the start of a test file, of a
 * reference wallet in memory, of every server a test spawns and of a first `npm start`. A new cluster (in memory, or
 * in a directory that is missing or empty) starts instead from an image of a fresh one (PGlite's `loadDataDir`: the
 * files initdb writes), made once per PGlite version and kept in a folder of the temporary directory private to this
 * user. The image is a cache: when it cannot be had, or a cluster cannot be started from it, initdb makes the cluster.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { ensurePrivateDir } from '../data-dir.ts';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')), 'utf8')) as {
    version: string;
  }
).version;
const usersFolder = join(tmpdir(), `bookmaker-${process.getuid?.() ?? 'user'}`);

let image: Promise<Blob | undefined> | undefined;

/** PGlite.create, a new cluster started from the image of a fresh one when there is one. */
export function createPglite(options: PGliteOptions): Promise<PGlite> {
  return createPgliteFrom(freshClusterImage, options);
}

/** createPglite with the image taken from `imageOf` (the tests give a damaged one). */
export async function createPgliteFrom(
  imageOf: () => Promise<Blob | undefined>,
  options: PGliteOptions,
): Promise<PGlite> {
  const image = isNewCluster(options.dataDir) ? await imageOf() : undefined;
  if (!image) return PGlite.create(options);
  try {
    return await PGlite.create({ ...options, loadDataDir: image });
  } catch {
    // The directory was empty before: what the failed start left in it is all there is to take away.
    if (options.dataDir) emptyDirectory(options.dataDir);
    return PGlite.create(options);
  }
}

function isNewCluster(dataDir: string | undefined): boolean {
  if (!dataDir) return true;
  try {
    return readdirSync(dataDir).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function emptyDirectory(dir: string): void {
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
}

/** The image of a fresh cluster, made by this call if no process has made it yet; undefined if it cannot be had. */
function freshClusterImage(): Promise<Blob | undefined> {
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
