import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** The rule sets: WCAG 2.1 A and AA by default; 2.2 AA adds the 24 px target size. */
const TAGS = {
  '2.1': ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'],
  '2.2': ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'],
};

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now. With WCAG 2.2 the
 * check that a control's name contains the words it shows (2.5.3, label in name; an axe rule still marked
 * experimental) runs too. axe runs through the DevTools protocol, which the page's Content-Security-Policy does not
 * govern, so the page is checked with its real policy in force.
 */
export async function seriousViolations(page: Page, wcag: '2.1' | '2.2' = '2.1'): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource);
  const options = {
    runOnly: { type: 'tag', values: TAGS[wcag] },
    ...(wcag === '2.2' ? { rules: { 'label-content-name-mismatch': { enabled: true } } } : {}),
  };
  const violations = await page.evaluate<Violation[]>(
    `axe.run(document, ${JSON.stringify(options)}).then((result) => result.violations)`,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
