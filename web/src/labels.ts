import { formatLine, isMessageKey, t } from './i18n/index.ts';
import type { EventHeader, LivePeriod, Market, MarketType, Selection } from './types.ts';

/** Names the feed writes in English, shown in the player's language with every number through the locale. */

/** Market types whose line is a start given or taken (signed), and those whose line is a count (plain). */
const SIGNED_LINES: ReadonlySet<MarketType> = new Set(['handicap']);
const LINE_TYPES: ReadonlySet<MarketType> = new Set(['totals', 'handicap']);

export function marketLabel(type: MarketType, line: string | null): string {
  const base = t(`market_${type}` as const);
  return line !== null && LINE_TYPES.has(type) ? `${base} ${formatLine(line, SIGNED_LINES.has(type))}` : base;
}

/** A market name as the bet view has it ("Total over/under 2.5"), translated when it is one the service writes. */
export function marketNameLabel(name: string): string {
  const patterns: Array<[RegExp, MarketType]> = [
    [/^Match result$/i, 'match_result'],
    [/^Money ?line$/i, 'moneyline'],
    [/^Total over\/under (.+)$/i, 'totals'],
    [/^Handicap (.+)$/i, 'handicap'],
    [/^Both teams to score$/i, 'both_teams_to_score'],
    [/^Correct score$/i, 'correct_score'],
    [/^Double chance$/i, 'double_chance'],
    [/^Draw no bet$/i, 'draw_no_bet'],
    [/^Half-time result$/i, 'half_time_result'],
    [/^First half moneyline$/i, 'first_half_moneyline'],
    [/^Set betting$/i, 'set_betting'],
    [/^First set winner$/i, 'first_set_winner'],
  ];
  for (const [pattern, type] of patterns) {
    const match = pattern.exec(name);
    if (match) return marketLabel(type, match[1] ?? null);
  }
  return name;
}

const NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A selection as players read it: "Home -1.5" becomes the home team with its line, "Home or Draw" the team or
 * the draw; "Draw", "Over 2.5", "Yes" and "No" are translated, lines through the locale; anything else (a team
 * name, a correct score) is shown as the feed wrote it.
 */
export function selectionLabel(name: string, home: string, away: string, line?: string | null): string {
  const either = /^(Home|Draw|Away)\s+or\s+(Home|Draw|Away)$/i.exec(name);
  if (either) {
    const sideName = (side: string) => selectionLabel(side, home, away);
    return t('outcome_either', { first: sideName(either[1]!), second: sideName(either[2]!) });
  }
  const side = /^(Home|Away)(?:\s+(.*))?$/i.exec(name);
  if (side) {
    const team = side[1]!.toLowerCase() === 'home' ? home : away;
    const start = side[2];
    if (start === undefined) return team;
    return `${team} ${NUMBER.test(start) ? formatLine(start, true) : start}`;
  }
  const total = /^(Over|Under)(?:\s+(.+))?$/i.exec(name);
  const totalLine = total?.[2] ?? line;
  if (total && totalLine && NUMBER.test(totalLine)) {
    const key = total[1]!.toLowerCase() === 'over' ? 'outcome_over' : 'outcome_under';
    return t(key, { line: formatLine(totalLine, false) });
  }
  if (/^draw$/i.test(name)) return t('outcome_draw');
  if (/^any other$/i.test(name)) return t('outcome_other');
  if (/^yes$/i.test(name)) return t('outcome_yes');
  if (/^no$/i.test(name)) return t('outcome_no');
  return name;
}

export function selectionOf(selection: Selection, market: Market, event: EventHeader): string {
  return selectionLabel(selection.name, event.home, event.away, market.line);
}

/** The short column labels of the main market in event lists: 1 X 2, or 1 2. */
export function shortLabel(selection: Selection, market: Market, event: EventHeader): string {
  if (market.type === 'match_result' || market.type === 'moneyline') {
    if (selection.outcome === 'home') return '1';
    if (selection.outcome === 'draw') return 'X';
    if (selection.outcome === 'away') return '2';
  }
  return selectionOf(selection, market, event);
}

export function eventName(home: string, away: string): string {
  return t('versus', { home, away });
}

/** "Flamengo vs Palmeiras" (bet views) split back into teams, to name "Home"/"Away" selections. */
export function teamsOf(name: string): [string, string] {
  const parts = name.split(/\s+vs\.?\s+/i);
  return parts.length === 2 ? [parts[0]!, parts[1]!] : [name, name];
}

/** A sport in the player's language; a sport the app has no name for keeps the feed's. */
export function sportName(sport: { id: string; name: string }): string {
  const key = `sport_${sport.id}`;
  return isMessageKey(key) ? t(key) : sport.name;
}

/** Where a live event stands ("2nd half", "Q3", "Set 2"), or null when the feed gave no period. */
export function periodLabel(period: LivePeriod | null | undefined): string | null {
  return period ? t(`period_${period}` as const) : null;
}
