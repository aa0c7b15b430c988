import type { WireCall } from './wire.ts';

/**
 * The certification report: what was run against which wallet, each rule's verdict with the calls that decided
 * it (exact request and answer, latency), as JSON (the report itself), text (for a person) and JUnit XML (for CI).
 * The wallet secret is in none of them: a request shows its X-Signature, never the key it was made with.
 */

/** How the wallet was known to be a sandbox's: checked with Bookmaker, or asserted by the person running it. */
export type SandboxTarget =
  | { environment: 'sandbox'; verifiedBy: 'bookmaker'; bookmakerUrl: string; clientId: string; tenantId: string }
  | { environment: 'sandbox'; verifiedBy: 'operator_assertion' };

export interface RuleResult {
  id: string;
  title: string;
  /** The contract section the rule comes from. */
  contract: string;
  status: 'pass' | 'fail' | 'skip';
  /** What was seen (pass), why it does not hold (fail), why it did not run (skip). */
  detail: string;
  /** The step of the call that showed the failure. */
  decidedBy?: string;
  /** What certification did to undo a failure's effects (recovery, compensation). */
  notes: string[];
  durationMs: number;
  calls: WireCall[];
}

export interface CertificationReport {
  tool: 'bookmaker wallet certify';
  version: string;
  runId: string;
  startedAt: string;
  finishedAt: string;
  wallet: {
    url: string;
    currency: string;
    player: string;
    emptyPlayer: string | null;
    blockedPlayer: string | null;
    timeoutMs: number;
  };
  target: SandboxTarget;
  /** certified: every rule passed; incomplete: none failed, some were skipped; failed: at least one failed. */
  result: 'certified' | 'incomplete' | 'failed';
  summary: { rules: number; passed: number; failed: number; skipped: number };
  latency: { calls: number; medianMs: number; maxMs: number; limitMs: number };
  rules: RuleResult[];
}

/** Wallet text on a terminal: control characters (escape sequences included) shown as escapes, long bodies cut. */
function printable(text: string, limit = 2_000): string {
  const cut = text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
  return cut.toWellFormed().replace(/\p{Cc}/gu, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

const STATUS_WORD = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

export function describeTarget(target: SandboxTarget): string {
  return target.verifiedBy === 'bookmaker'
    ? `sandbox wallet of client ${target.clientId} (tenant ${target.tenantId}), verified with ${target.bookmakerUrl}`
    : 'sandbox wallet by the word of the person who ran it (--sandbox-wallet), not verified with Bookmaker';
}

function callLines(call: WireCall, indent: string): string[] {
  const { request, response } = call;
  const headers = Object.entries(request.headers)
    .filter(([name]) => name.startsWith('x-'))
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  const answer = response
    ? `${response.status} ${printable(response.body, 500)}`
    : `no answer: ${printable(call.error ?? 'none')}`;
  const verdict = call.outcome.outcome;
  return [
    `${indent}- ${call.step} (${verdict}, ${call.latencyMs} ms)`,
    `${indent}    > POST ${request.url}  ${headers || '(no signature headers)'}`,
    `${indent}    > ${printable(request.body, 500)}`,
    `${indent}    < ${answer}`,
  ];
}

/** The report for a person: one block per rule, its calls with their request and answer. */
export function renderText(report: CertificationReport): string {
  const lines = [
    `Wallet certification ${report.runId} (bookmaker ${report.version})`,
    `Wallet:  ${report.wallet.url}  currency ${report.wallet.currency}  player ${report.wallet.player}` +
      `  empty player ${report.wallet.emptyPlayer ?? '(none)'}  blocked player ${report.wallet.blockedPlayer ?? '(none)'}`,
    `Target:  ${describeTarget(report.target)}`,
    `Started: ${report.startedAt}  finished: ${report.finishedAt}`,
    '',
  ];
  for (const rule of report.rules) {
    lines.push(`${STATUS_WORD[rule.status]}  ${rule.id}: ${rule.title}`);
    lines.push(`      contract: ${rule.contract}`);
    lines.push(
      `      ${rule.status === 'fail' ? 'why' : rule.status === 'skip' ? 'skipped' : 'seen'}: ${printable(rule.detail)}`,
    );
    if (rule.decidedBy) lines.push(`      decided by: ${printable(rule.decidedBy)}`);
    for (const note of rule.notes) lines.push(`      note: ${printable(note)}`);
    for (const call of rule.calls) lines.push(...callLines(call, '      '));
    lines.push('');
  }
  const { passed, failed, skipped, rules } = report.summary;
  const { calls, medianMs, maxMs, limitMs } = report.latency;
  lines.push(
    `Latency: ${calls} calls, median ${medianMs} ms, slowest ${maxMs} ms (limit ${limitMs} ms)`,
    `Result:  ${report.result.toUpperCase()}: ${passed} of ${rules} rules passed, ${failed} failed, ${skipped} skipped`,
  );
  if (report.result === 'incomplete') {
    lines.push('         Skipped rules are not passed: run again with every player given for a complete report.');
  }
  return `${lines.join('\n')}\n`;
}

/** One progress line, written as each rule is decided. */
export function progressLine(rule: RuleResult, position: number, total: number): string {
  const width = String(total).length;
  const calls = rule.calls.length === 1 ? '1 call' : `${rule.calls.length} calls`;
  const why = rule.status === 'pass' ? '' : `: ${printable(rule.detail, 300)}`;
  return `[${String(position).padStart(width)}/${total}] ${STATUS_WORD[rule.status]} ${rule.id} (${calls}, ${rule.durationMs} ms)${why}`;
}

/** XML text: the five escapes, and no character XML 1.0 cannot hold. */
function xml(text: string): string {
  return text
    .toWellFormed()
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JUnit XML as CI servers read it: one test suite, one test case per rule. */
export function renderJunit(report: CertificationReport): string {
  const { rules, failed, skipped } = report.summary;
  const time = seconds(report.rules.reduce((sum, rule) => sum + rule.durationMs, 0));
  const properties: Array<[string, string]> = [
    ['runId', report.runId],
    ['version', report.version],
    ['wallet', report.wallet.url],
    ['currency', report.wallet.currency],
    ['player', report.wallet.player],
    ['emptyPlayer', report.wallet.emptyPlayer ?? ''],
    ['blockedPlayer', report.wallet.blockedPlayer ?? ''],
    ['target', describeTarget(report.target)],
    ['result', report.result],
  ];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bookmaker wallet certify" tests="${rules}" failures="${failed}" errors="0" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="wallet contract" tests="${rules}" failures="${failed}" errors="0" skipped="${skipped}" time="${time}" timestamp="${xml(report.startedAt)}">`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property name="${xml(name)}" value="${xml(value)}"/>`),
    '    </properties>',
  ];
  for (const rule of report.rules) {
    const group = rule.id.split('.')[0]!;
    const calls = rule.calls.flatMap((call) => callLines(call, '')).join('\n');
    const output = [`contract: ${rule.contract}`, rule.detail, ...rule.notes.map((n) => `note: ${n}`), calls].join(
      '\n',
    );
    out.push(
      `    <testcase classname="wallet.${xml(group)}" name="${xml(`${rule.id}: ${rule.title}`)}" time="${seconds(rule.durationMs)}">`,
    );
    if (rule.status === 'fail')
      out.push(`      <failure message="${xml(rule.detail)}" type="rule_failed">${xml(output)}</failure>`);
    if (rule.status === 'skip') out.push(`      <skipped message="${xml(rule.detail)}"/>`);
    if (rule.status === 'pass') out.push(`      <system-out>${xml(output)}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
