import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where `npm run build` writes the iframe app and the SDK; neither is committed. */
const ROOT = join(import.meta.dirname, '..', '..');
export const APP_DIR = join(ROOT, 'web', 'dist');
export const APP_ASSETS_DIR = join(APP_DIR, 'assets');
export const SDK_FILE = join(ROOT, 'sdk', 'dist', 'v1.js');
export const BUILD_HINT = 'Build the iframe app and the SDK with `npm run build` (npm start and npm test build them).';

/**
 * A built file, read once and kept while it does not change on disk (a rebuild beside a running development
 * server is picked up at the next request). Null while it is not built.
 */
export class BuiltFile {
  readonly #path: string;
  #cached: { mtimeMs: number; text: string } | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  async text(): Promise<string | null> {
    const info = await stat(this.#path).catch(() => null);
    if (!info) return null;
    if (this.#cached?.mtimeMs !== info.mtimeMs) {
      this.#cached = { mtimeMs: info.mtimeMs, text: await readFile(this.#path, 'utf8') };
    }
    return this.#cached.text;
  }
}
