import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from './helpers/app.ts';

/**
 * The operator's files: the Grafana dashboard and the Prometheus alerting rules of ops/, held to the metrics this
 * service really exposes (scraped from a running app) and to the runbook sections of docs/operations.md.
 */
const ROOT = join(import.meta.dirname, '..');
const ALERTS_FILE = join(ROOT, 'ops', 'alerts.yml');
const ALERTS_TEST_FILE = join(ROOT, 'ops', 'alerts.test.yml');
const DASHBOARD = JSON.parse(readFileSync(join(ROOT, 'ops', 'grafana-dashboard.json'), 'utf8'));
const ALERTS = parse(readFileSync(ALERTS_FILE, 'utf8'));
const GUIDE = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
/** Debian's `prometheus` package ships it. */
const PROMTOOL = '/usr/bin/promtool';

const ROWS = ['Traffic', 'Bets', 'Wallets per tenant', 'Ledger', 'Process', 'Change stream'];
/** Series Prometheus itself makes for every target, which the alerts may use beside the service's own. */
const SCRAPE_SERIES = ['up'];

/** What PromQL spells that is not a metric: keywords, and words in front of a label list. */
const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names an expression reads: every bare identifier that is not a function, a keyword, a label (inside
 * `{…}` or a `by (…)`-like list), a string or a duration.
 */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const words = bare.matchAll(/(?<![\w:.$])[A-Za-z_:][\w:]*(?![\w:]|\s*\()/g);
  return [...new Set([...words].map(([word]) => word).filter((word) => !PROMQL_KEYWORDS.has(word)))];
}

/** Every series name a scrape can hold, from the families' `# TYPE` lines: a histogram is its _bucket, _sum, _count. */
function seriesNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram') ['_bucket', '_sum', '_count'].forEach((suffix) => names.add(name! + suffix));
    else if (type === 'summary') [name!, `${name}_sum`, `${name}_count`].forEach((series) => names.add(series));
    else names.add(name!);
  }
  return names;
}

/** GitHub's heading anchors, as test/docs.test.ts computes them. */
function anchorsOf(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#+ (.+)$/gm)].map((match) =>
      match[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

interface Panel {
  type: string;
  title?: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr?: string; datasource?: { type: string; uid: string } }>;
  panels?: Panel[];
  collapsed?: boolean;
  gridPos: { x: number; y: number; w: number; h: number };
}

/** The dashboard's rows, each with its panels: inside the row when it is collapsed, after it when it is open. */
function rowsOf(dashboard: { panels: Panel[] }): Array<{ title: string; panels: Panel[] }> {
  const rows: Array<{ title: string; panels: Panel[] }> = [];
  for (const panel of dashboard.panels) {
    if (panel.type === 'row') rows.push({ title: panel.title ?? '', panels: [...(panel.panels ?? [])] });
    else if (rows.length === 0) throw new Error(`panel "${panel.title}" comes before the first row`);
    else rows.at(-1)!.panels.push(panel);
  }
  return rows;
}

const PANELS = rowsOf(DASHBOARD).flatMap((row) => row.panels);
const RULES: Array<Record<string, any>> = ALERTS.groups.flatMap((group: { rules: unknown[] }) => group.rules);

let t: TestApp;
let exposed: Set<string>;
let families: string[];
before(async () => {
  t = await startTestApp({ METRICS_PORT: '0' });
  const scrape = await (await fetch(t.metricsUrl!)).text();
  exposed = seriesNames(scrape);
  families = [...scrape.matchAll(/^# TYPE (bookmaker_\S+) /gm)].map((match) => match[1]!).sort();
});
after(() => t.close());

describe('the metric names of PromQL expressions', () => {
  it('are read without labels, functions, keywords, strings or durations', () => {
    assert.deepEqual(
      metricsOf(
        'histogram_quantile(0.99, sum by (tenant, le) (rate(x_bucket{result=~"a|b", le!="1e3"}[5m] offset 1h))) > 2 ' +
          'and on (tenant) sum without (code) (rate(y_total[$__rate_interval])) > 1e3 or vector(0) unless up == bool 0',
      ),
      ['x_bucket', 'y_total', 'up'],
    );
  });
});

describe('the Grafana dashboard (ops/grafana-dashboard.json)', () => {
  it('is importable: schema 39, a Prometheus data source input and variable, a tenant variable', () => {
    assert.equal(DASHBOARD.schemaVersion, 39);
    assert.equal(DASHBOARD.uid, 'bookmaker');
    assert.deepEqual(
      DASHBOARD.__inputs.map((input: Record<string, string>) => [input.name, input.type, input.pluginId]),
      [['DS_PROMETHEUS', 'datasource', 'prometheus']],
    );
    const variables = Object.fromEntries(
      DASHBOARD.templating.list.map((variable: Record<string, any>) => [variable.name, variable]),
    );
    assert.deepEqual(Object.keys(variables), ['datasource', 'instance', 'tenant']);
    assert.equal(variables.datasource.type, 'datasource');
    assert.equal(variables.datasource.query, 'prometheus');
    assert.equal(variables.datasource.current.value, '${DS_PROMETHEUS}');
    assert.equal(variables.tenant.query.query, 'label_values(bookmaker_wallet_calls_total, tenant)');
    assert.equal(variables.instance.query.query, 'label_values(bookmaker_ready, instance)');
  });

  it('has one row per area, in order', () => {
    assert.deepEqual(
      rowsOf(DASHBOARD).map((row) => row.title),
      ROWS,
    );
    assert.ok(rowsOf(DASHBOARD).every((row) => row.panels.length >= 4));
  });

  it('gives every panel a title, the templated data source, a query and a place on the 24-column grid', () => {
    const faults = PANELS.flatMap((panel) => {
      const name = panel.title ?? JSON.stringify(panel.gridPos);
      const problems: string[] = [];
      if (!panel.title) problems.push('no title');
      if (panel.datasource?.uid !== '${datasource}') problems.push('not on the ${datasource} variable');
      if (!panel.targets?.length || !panel.targets.every((target) => target.expr?.trim())) problems.push('no query');
      if (panel.gridPos.x + panel.gridPos.w > 24) problems.push('wider than the grid');
      return problems.map((problem) => `${name}: ${problem}`);
    });
    assert.deepEqual(faults, []);
  });

  it('queries only series the service exposes', () => {
    const variableMetrics = DASHBOARD.templating.list
      .filter((variable: Record<string, any>) => variable.type === 'query')
      .map((variable: Record<string, any>) => /^label_values\((\w+), \w+\)$/.exec(variable.query.query)![1]!);
    const queries = PANELS.flatMap((panel) => panel.targets!.map((target) => target.expr!));
    const unknown = [...variableMetrics, ...queries.flatMap(metricsOf)].filter((name) => !exposed.has(name));
    assert.deepEqual(unknown, []);
    assert.ok(queries.every((query) => metricsOf(query).length > 0));
  });

  it('shows every bookmaker_ metric family', () => {
    const shown = new Set(PANELS.flatMap((panel) => panel.targets!.flatMap((target) => metricsOf(target.expr!))));
    const missing = families.filter((family) => !['', '_bucket', '_total'].some((end) => shown.has(family + end)));
    assert.deepEqual(missing, []);
  });
});

describe('the alerting rules (ops/alerts.yml)', () => {
  it('are the eight alerts of the guide, each with its severity, texts, runbook and `for`', () => {
    assert.deepEqual(
      RULES.map((rule) => rule.alert),
      [
        'BookmakerWalletErrorRate',
        'BookmakerWalletLatencyHigh',
        'BookmakerOldestPendingObligation',
        'BookmakerHeldForReview',
        'BookmakerInstanceLockLost',
        'BookmakerNotReady',
        'BookmakerInstanceDown',
        'BookmakerHttp5xxRatio',
      ],
    );
    const faults = RULES.flatMap((rule) => {
      const missing = [
        ['expr', rule.expr],
        ['for', rule.for],
        ['labels.severity', ['critical', 'warning'].includes(rule.labels?.severity) ? 'ok' : undefined],
        ...['summary', 'description', 'runbook', 'runbook_url'].map((key) => [
          `annotations.${key}`,
          rule.annotations?.[key],
        ]),
      ].filter(([, value]) => typeof value !== 'string' || value.trim() === '');
      return missing.map(([key]) => `${rule.alert}: no ${key}`);
    });
    assert.deepEqual(faults, []);
  });

  it('give a runbook of one sentence', () => {
    const sentences = (text: string) =>
      text
        .replace(/`[^`]*`/g, 'a command')
        .split(/[.!?](?:\s+|$)/)
        .filter((part) => part.trim() !== '').length;
    const faults = RULES.filter(
      (rule) => sentences(rule.annotations.runbook) !== 1 || !rule.annotations.runbook.endsWith('.'),
    );
    assert.deepEqual(
      faults.map((rule) => rule.alert),
      [],
    );
  });

  it("point each runbook_url at the alert's own section of docs/operations.md", () => {
    const anchors = anchorsOf(GUIDE);
    const faults = RULES.filter((rule) => {
      const url = `docs/operations.md#${String(rule.alert).toLowerCase()}`;
      return rule.annotations.runbook_url !== url || !anchors.has(url.split('#')[1]!);
    });
    assert.deepEqual(
      faults.map((rule) => `${rule.alert}: ${rule.annotations.runbook_url}`),
      [],
    );
  });

  it('read only series the service exposes, and `up`', () => {
    const unknown = RULES.flatMap((rule) =>
      metricsOf(rule.expr)
        .filter((name) => !exposed.has(name) && !SCRAPE_SERIES.includes(name))
        .map((name) => `${rule.alert}: ${name}`),
    );
    assert.deepEqual(unknown, []);
  });

  it('pass promtool check rules and their unit tests (ops/alerts.test.yml)', (context) => {
    if (!existsSync(PROMTOOL)) {
      return context.skip(`${PROMTOOL} is not installed (Debian: apt install prometheus): the rules are parsed only`);
    }
    for (const args of [
      ['check', 'rules', ALERTS_FILE],
      ['test', 'rules', ALERTS_TEST_FILE],
    ]) {
      const run = spawnSync(PROMTOOL, args, { encoding: 'utf8' });
      assert.equal(run.status, 0, `promtool ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
    }
  });
});

describe('the metrics section of docs/operations.md', () => {
  it('lists exactly the bookmaker_ families the service exposes', () => {
    const documented = [...GUIDE.matchAll(/^\| `(bookmaker_\w+)` \|/gm)].map((match) => match[1]!).sort();
    assert.deepEqual(documented, families);
  });
});
