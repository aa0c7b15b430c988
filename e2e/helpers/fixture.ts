import { after, before, beforeEach } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserUnavailable, launchBrowser } from './browser.ts';
import { startStack, type Stack, type StackOptions } from './stack.ts';

/**
 * What a browser test file starts from, in one line:
 *
 *     const { stack, browser, skip } = stackAndBrowser({ demo: false });
 *     describe('…', { skip }, () => { … stack.appUrl() … browser.newPage() … });
 *
 * `skip` is why browser tests cannot run here (false when they can; with REQUIRE_BROWSER set, a missing browser throws
 * instead). Before the file's first test, the stack (startStack with these options) and the browser start side by
 * side, once for the file, then `setUp` runs with the stack (what else the whole file needs from it); after its last
 * test both are closed. `stack` and `browser` stand for them from then on: they can be used in tests, not while the
 * file is loaded nor in a `before` of the file's top level (Node runs those at the same time as this one: a set-up
 * that needs the stack goes in `setUp`). Before each test, the wallet is left with no fault and no latency an earlier
 * test set.
 */
export function stackAndBrowser(
  options: StackOptions = {},
  setUp?: (stack: Stack) => Promise<void>,
): { stack: Stack; browser: Browser; skip: string | false } {
  const stack = late<Stack>('the stack');
  const browser = late<Browser>('the browser');
  const skip = browserUnavailable() ?? false;
  before(async () => {
    if (skip) return;
    const [started, launched] = await Promise.allSettled([startStack(options), launchBrowser()]);
    if (started.status === 'fulfilled') stack.set(started.value);
    if (launched.status === 'fulfilled') browser.set(launched.value);
    for (const result of [started, launched]) if (result.status === 'rejected') throw result.reason;
    await setUp?.(stack.value);
  });
  beforeEach(() => {
    const wallet = stack.current()?.wallet;
    if (!wallet) return;
    wallet.wallet.faults.length = 0;
    wallet.setLatency(0);
  });
  after(async () => {
    await browser.current()?.close();
    await stack.current()?.close();
  });
  return { stack: stack.value, browser: browser.value, skip };
}

/**
 * The same for a file that needs the browser only: its own servers, if any, started in a `before` of its own (which
 * Node runs at the same time as the browser's launch).
 */
export function browserOnly(): { browser: Browser; skip: string | false } {
  const browser = late<Browser>('the browser');
  const skip = browserUnavailable() ?? false;
  before(async () => {
    if (!skip) browser.set(await launchBrowser());
  });
  after(async () => {
    await browser.current()?.close();
  });
  return { browser: browser.value, skip };
}

/**
 * A stand-in for an object made later, in a hook: `value` reads every property from the object `set` was given (its
 * methods bound to it), and says so plainly when nothing was given yet.
 */
function late<T extends object>(what: string) {
  let current: T | undefined;
  const value = new Proxy({} as T, {
    get(_target, key) {
      // not a promise: `await value` and Promise.resolve(value) look for `then`
      if (key === 'then') return undefined;
      if (!current) throw new Error(`${what} is used before the file's before hook started it`);
      const property: unknown = Reflect.get(current, key, current);
      return typeof property === 'function' ? property.bind(current) : property;
    },
  });
  return { value, set: (made: T) => void (current = made), current: () => current };
}
