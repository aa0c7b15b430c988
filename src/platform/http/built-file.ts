import { readFile, stat } from 'node:fs/promises';

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
