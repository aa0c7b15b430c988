import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium package, the browser a person runs: the speed measurements use it (e2e/vitals.ts). Test tools
 * never download a browser of their own here.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's chromium-headless-shell, built from the same chromium sources without the browser's window and profile
 * code (what playwright's own headless mode runs): the browser tests run on it when it is installed, a third less CPU
 * a browser test file (e2e/app.test.ts: 13 s against 19 to 20 s, measured alternately), else on chromium.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const TEST_CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/** Where screenshots go, for a person to look at after a run. */
export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/**
 * Why browser tests cannot run here, or null when they can. Without Chromium they are skipped with this reason,
 * unless REQUIRE_BROWSER is set (CI sets it), in which case the missing browser is a failure.
 */
export function browserUnavailable(executablePath = TEST_CHROMIUM): string | null {
  if (existsSync(executablePath)) return null;
  const reason = `no Chromium at ${executablePath}: install Debian's chromium package (apt install chromium) or set CHROMIUM_PATH`;
  if (process.env.REQUIRE_BROWSER) throw new Error(reason);
  return reason;
}

/** A headless Chromium: the tests' (the headless shell when installed), or the one given (the measurements' own). */
export async function launchBrowser(executablePath = TEST_CHROMIUM): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
