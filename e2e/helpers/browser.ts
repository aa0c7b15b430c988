import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package; test tools never download a browser of their own here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots go, for a person to look at after a run. */
export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/**
 * Why browser tests cannot run here, or null when they can. Without Chromium they are skipped with this reason,
 * unless REQUIRE_BROWSER is set (CI sets it), in which case the missing browser is a failure.
 */
export function browserUnavailable(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `no Chromium at ${CHROMIUM}: install Debian's chromium package (apt install chromium) or set CHROMIUM_PATH`;
  if (process.env.REQUIRE_BROWSER) throw new Error(reason);
  return reason;
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
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
