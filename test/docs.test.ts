import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';

/** The project's documentation stands alone: every relative link points at a file (and heading) of this repository. */
const ROOT = join(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  ...['reference-wallet', 'sdk', 'web', 'demo'].map((folder) => `${folder}/README.md`),
  ...docs(),
];

/** Every page under docs/: a new page is checked without being listed. */
function docs(): string[] {
  return readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens; plus explicit <a id> anchors. */
function anchors(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#+ (.+)$/gm)].map((match) =>
    match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replace(/ /g, '-'),
  );
  const explicit = [...markdown.matchAll(/<a id="([^"]+)">/g)].map((match) => match[1]!);
  return new Set([...headings, ...explicit]);
}

describe('documentation', () => {
  it('every page exists and every relative link in it resolves, anchors included', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const file = join(ROOT, page);
      assert.ok(existsSync(file), `${page} is missing`);
      const text = readFileSync(file, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path);
        if (!resolved.startsWith(ROOT) || !existsSync(resolved)) {
          broken.push(`${page}: ${target} (${relative(ROOT, resolved)} does not exist)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
