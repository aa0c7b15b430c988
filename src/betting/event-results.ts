import type { CatalogService, FinalScore } from '../catalog/service.ts';
import { catalogErrors } from '../catalog/errors.ts';
import { scoreProblem } from '../catalog/result-rules.ts';
import type { Acting, AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import { AppError, validationError } from '../platform/errors.ts';
import type { EventResultPreview, EventResultReport, MarketByRule, SettleBody, SettlementReport } from './schemas.ts';
import type { Settlement, SettlementMode } from './settlement.ts';

type EventResultsDeps = { db: Db; clock: Clock; catalog: CatalogService; settlement: Settlement; audit: AuditLog };
/** A market's results by rule, with the settle body that records them (none where it was skipped). */
type Planned = MarketByRule & { body?: SettleBody };

/**
 * Results by rule: a trader gives an event's final score; every market's results follow from its type's rule
 * (catalog/result-rules.ts), and each market is settled, or resettled where its results change, through the same
 * settlement a trader's typed results take. The preview is that settlement's dry run for every market; applying it
 * records the score, ends the event and settles market by market, each in its own transaction, so one market that
 * cannot settle (a bet still waiting for its stake) does not hold back the rest and is reported, to apply again.
 */
export class EventResults {
  readonly #deps: EventResultsDeps;

  constructor(deps: EventResultsDeps) {
    this.#deps = deps;
  }

  async preview(eventId: string, score: FinalScore): Promise<EventResultPreview> {
    const plan = await this.plan(eventId, score);
    // one dry run after another: each holds a connection, which players' requests need too
    const markets: EventResultPreview['markets'] = [];
    for (const { body, ...market } of plan.markets) {
      const { action, marketId } = market;
      const preview = body && settles(action) ? await this.#deps.settlement.preview(action, marketId, body) : undefined;
      markets.push(preview ? { ...market, preview } : market);
    }
    return { event: plan.event, markets };
  }

  async apply(by: Acting, eventId: string, score: FinalScore): Promise<EventResultReport> {
    const plan = await this.plan(eventId, score);
    const final = { home: score.home, away: score.away };
    if (plan.event.status !== 'finished' || !sameScore(plan.event.score, final)) {
      await this.#deps.catalog.trading.updateEvent(by, eventId, { status: 'finished', score: final });
    }
    const markets: EventResultReport['markets'] = [];
    for (const market of plan.markets) markets.push(await this.#settle(by, market));
    await this.#deps.audit.record(this.#deps.db, {
      actor: by.actor,
      action: 'event.result',
      target: { type: 'event', id: eventId },
      outcome: markets.some((market) => market.error) ? 'failure' : 'success',
      ip: by.ip,
      details: { score, markets: markets.map(({ marketId, action, error }) => ({ marketId, action, error })) },
    });
    return { event: { ...plan.event, status: 'finished', score: final }, markets };
  }

  /**
   * A cancelled event (a trusted producer said so): every market without results is voided, each selection void,
   * so every stake on it is owed back. Markets settled already keep their results.
   */
  async voidUnsettled(by: Acting, eventId: string): Promise<EventResultReport['markets']> {
    const { markets } = await this.#deps.catalog.eventMarkets(eventId);
    const voided: EventResultReport['markets'] = [];
    for (const { market, selections } of markets.filter(({ market }) => market.status !== 'settled')) {
      const body = { results: selections.map((selection) => ({ selectionId: selection.id, result: 'void' as const })) };
      voided.push(
        await this.#settle(by, {
          marketId: market.id,
          name: market.name,
          type: market.type,
          action: 'settle',
          body,
        }),
      );
    }
    return voided;
  }

  /**
   * A trusted producer rolled its result or its cancellation back: the event's settled markets (for a cancellation,
   * those it voided: every selection void) have their results withdrawn, each in its own transaction, so each is
   * suspended until its next result and its bets are open again (Settlement.rollback).
   */
  async rollback(by: Acting, eventId: string, voidedOnly = false): Promise<MarketRollback[]> {
    const { markets } = await this.#deps.catalog.eventMarkets(eventId);
    const settled = markets.filter(
      ({ market, selections }) =>
        market.status === 'settled' && (!voidedOnly || selections.every((one) => one.result === 'void')),
    );
    const rolledBack: MarketRollback[] = [];
    for (const { market } of settled) {
      try {
        rolledBack.push({ marketId: market.id, report: await this.#deps.settlement.rollback(by, market.id) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        rolledBack.push({ marketId: market.id, error: { code: error.code, message: error.message } });
      }
    }
    return rolledBack;
  }

  /** Each market's derived results and what applying them would do; refused for an event that cannot have them. */
  async plan(eventId: string, score: FinalScore) {
    const problem = scoreProblem(score);
    if (problem) throw validationError(problem.field, problem.message);
    const { event, markets } = await this.#deps.catalog.resultsByRule(eventId, score);
    if (event.status === 'cancelled') throw catalogErrors.event_cancelled();
    if (event.status === 'scheduled' && event.starts_at > this.#deps.clock.now()) {
      throw catalogErrors.event_not_started();
    }
    return {
      event: {
        id: event.id,
        status: event.status,
        score: event.score_home === null ? null : { home: event.score_home, away: event.score_away! },
      },
      markets: markets.map(({ market, selections, derived }): Planned => {
        const base = { marketId: market.id, name: market.name, type: market.type };
        if ('missing' in derived) {
          return {
            ...base,
            action: 'skipped',
            reason: derived.missing === 'halfTime' ? 'needs_half_time' : 'needs_sets',
          };
        }
        const results = derived.results.map(({ selectionId, result }) => {
          const selection = selections.find((one) => one.id === selectionId)!;
          return { selectionId, name: selection.name, outcome: selection.outcome, result, was: selection.result };
        });
        const settled = market.status === 'settled';
        const same = results.every(({ result, was }) => result === was);
        return {
          ...base,
          action: !settled ? 'settle' : same ? 'unchanged' : 'resettle',
          results,
          body: { results: derived.results },
        };
      }),
    };
  }

  /**
   * One market, settled or resettled as planned. Settled meanwhile by someone else (a trader, a second apply): its
   * results are corrected to these by resettling, which changes nothing where they are the same.
   */
  async #settle(by: Acting, { body, ...market }: Planned): Promise<EventResultReport['markets'][number]> {
    if (!body || !settles(market.action)) return market;
    const { settlement } = this.#deps;
    try {
      if (market.action === 'resettle')
        return { ...market, report: await settlement.resettle(by, market.marketId, body) };
      try {
        return { ...market, report: await settlement.settle(by, market.marketId, body) };
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== catalogErrors.market_settled.code) throw error;
        return { ...market, report: await settlement.resettle(by, market.marketId, body) };
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { ...market, error: { code: error.code, message: error.message } };
    }
  }
}

/** One market's rollback: its settlement report, or why it was not rolled back (the others were). */
interface MarketRollback {
  marketId: string;
  report?: SettlementReport;
  error?: { code: string; message: string };
}

const settles = (action: MarketByRule['action']): action is SettlementMode =>
  action === 'settle' || action === 'resettle';

function sameScore(current: { home: number; away: number } | null, score: FinalScore): boolean {
  return current !== null && current.home === score.home && current.away === score.away;
}
