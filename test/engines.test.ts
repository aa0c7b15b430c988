import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ENGINE_DEPENDENT_MARKS, ENGINE_INDEPENDENT } from './engines.ts';
import { LONGEST_FIRST } from './schedule.ts';

/** The PostgreSQL pass leaves out only what cannot differ there (engines.ts). */
describe('the files the PostgreSQL pass leaves out', () => {
  it('exist, each with its reason', () => {
    for (const [file, reason] of Object.entries(ENGINE_INDEPENDENT)) {
      assert.ok(existsSync(new URL(`../${file}`, import.meta.url)), `${file} is named but does not exist`);
      assert.ok(file.endsWith('.test.ts') && reason.length > 0, file);
    }
  });

  it('read no DATABASE_URL, skip on no engine and race no transactions', () => {
    /** Where a mark means something else: the name of a setting parsed, the reason a suite runs on PGlite alone. */
    const named: Record<string, string[]> = {
      'test/platform/config.test.ts': ['DATABASE_URL'],
      'test/platform/data-directory.test.ts': ['DATABASE_URL'],
      'test/engines.test.ts': [...ENGINE_DEPENDENT_MARKS],
      'test/cli-failures.test.ts': ['DATABASE_URL'],
    };
    for (const file of Object.keys(ENGINE_INDEPENDENT)) {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      const marks = ENGINE_DEPENDENT_MARKS.filter((mark) => text.includes(mark) && !named[file]?.includes(mark));
      assert.deepEqual(marks, [], `${file} may depend on the engine: it mentions ${marks.join(', ')}`);
    }
  });
});

/** The runner starts these first (schedule.ts): a name that no longer exists would be ordering nothing. */
describe('the files the runner starts first', () => {
  it('exist, each named once', () => {
    for (const file of LONGEST_FIRST) {
      assert.ok(existsSync(new URL(`../${file}`, import.meta.url)), `${file} is named but does not exist`);
    }
    assert.equal(new Set(LONGEST_FIRST).size, LONGEST_FIRST.length);
  });
});
