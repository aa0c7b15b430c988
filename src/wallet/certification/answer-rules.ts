/**
 * The answer rules: what every call of a run must show in its answer (shape, txId echo, currency, error envelope,
 * time), judged over all the calls once the rules have run.
 */
import type { RuleResult } from './report.ts';
import { describeOutcome } from './rules.ts';
import type { WireCall } from './wire.ts';

interface AnswerRule {
  id: string;
  title: string;
  contract: string;
  /** Why this call breaks the rule, or null. */
  offence(call: WireCall): boolean;
  what: string;
}

export function answerRules(timeoutMs: number): AnswerRule[] {
  const unknown = (call: WireCall, reason: string) =>
    call.outcome.outcome === 'unknown' && call.outcome.reason === reason;
  const status = (call: WireCall) => call.outcome.status ?? 0;
  return [
    {
      id: 'answers.success-shape',
      title: 'Every 2xx answer is a JSON object with an integer balance and a currency',
      contract: 'Wallet movement (success body); Wallet movement delivery (a malformed or incomplete body is unknown)',
      offence: (call) => unknown(call, 'malformed_body') && status(call) < 300,
      what: '2xx answers were well formed',
    },
    {
      id: 'answers.txid-echo',
      title: "Every 2xx answer of /debit, /credit and /rollback echoes the request's txId",
      contract: 'Wallet movement (success body); Versioning (the txId echo is required)',
      offence: (call) => unknown(call, 'txid_mismatch'),
      what: 'movement answers echoed their txId',
    },
    {
      id: 'answers.currency',
      title: "Every 2xx answer is in the request's currency",
      contract: 'Wallet movement (success body); Wallet movement delivery (a mismatching currency is unknown)',
      offence: (call) => unknown(call, 'currency_mismatch'),
      what: 'answers were in the currency',
    },
    {
      id: 'answers.error-envelope',
      title: 'Every refusal (a 4xx but 408 and 429) carries { error: { code, message } }',
      contract: 'Wallet movement (error body); Wallet errors (a 4xx with an empty or malformed body counts as unknown)',
      offence: (call) => unknown(call, 'malformed_body') && status(call) >= 400,
      what: 'refusals carried the error envelope',
    },
    {
      id: 'answers.within-timeout',
      title: `Every call is answered within ${timeoutMs} ms`,
      contract: 'Limits (wallet timeout 5 s per attempt)',
      offence: (call) => unknown(call, 'timeout'),
      what: `calls were answered within ${timeoutMs} ms`,
    },
  ];
}

/** An answer rule judged over every call of the run. */
export function judged(rule: AnswerRule, calls: readonly WireCall[]): RuleResult {
  const offending = calls.filter((call) => rule.offence(call));
  const base = { id: rule.id, title: rule.title, contract: rule.contract, notes: [], durationMs: 0 };
  if (offending.length === 0) {
    return { ...base, status: 'pass', detail: `checked all ${calls.length} calls: ${rule.what}`, calls: [] };
  }
  return {
    ...base,
    status: 'fail',
    detail: `${offending.length} of ${calls.length} calls did not: ${offending
      .slice(0, 5)
      .map((call) => `${call.step} (${describeOutcome(call)})`)
      .join('; ')}`,
    decidedBy: offending[0]!.step,
    calls: offending,
  };
}
