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

const images = new Map<string, Promise<Blob | undefined>>();

/**
 * PGlite.create, a new cluster started from an image when there is one: of a fresh cluster, or the one `imageOf` gives
 * (the tests start from a migrated one).
 */
export function createPglite(options: PGliteOptions, imageOf = freshClusterImage): Promise<PGlite> {
  return createPgliteFrom(imageOf, options);
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
  return preparedClusterImage('fresh-cluster');
}

/**
 * The image named `name` (per PGlite version, in this user's private folder of the temporary directory), made by this
 * call from a fresh cluster and `prepare` if no process has made it yet; undefined if it cannot be had.
 */
export function preparedClusterImage(
  name: string,
  prepare: (cluster: PGlite) => Promise<void> = async () => {},
): Promise<Blob | undefined> {
  let image = images.get(name);
  if (!image) {
    image = clusterImageIn(usersFolder, name, prepare);
    images.set(name, image);
  }
  return image;
}

/** The image kept in `folder`, made there if missing; undefined when the folder is not private or not writable. */
export async function clusterImageIn(
  folder: string,
  name = 'fresh-cluster',
  prepare: (cluster: PGlite) => Promise<void> = async () => {},
): Promise<Blob | undefined> {
  try {
    return await readOrMakeImage(folder, name, prepare);
  } catch {
    return undefined;
  }
}

async function readOrMakeImage(
  folder: string,
  name: string,
  prepare: (cluster: PGlite) => Promise<void>,
): Promise<Blob> {
  ensurePrivateDir(folder, 'the PGlite image folder');
  const imagePath = join(folder, `pglite-${version}-${name}.tar`);
  try {
    return new Blob([readFileSync(imagePath)]);
  } catch {
    const fresh = name === 'fresh-cluster' ? undefined : await freshClusterImage();
    const cluster = await PGlite.create(fresh ? { loadDataDir: fresh } : {});
    await prepare(cluster);
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
