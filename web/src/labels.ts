import { t } from './i18n/index.ts';
import type { EventHeader, Market, MarketType, Selection } from './types.ts';

/** Names the feed writes in English, shown in the player's language. */

export function marketLabel(type: MarketType, line: string | null): string {
  const base = t(`market_${type}` as const);
  return line !== null && (type === 'totals' || type === 'handicap') ? `${base} ${line}` : base;
}

/** A market name as the bet view has it ("Total over/under 2.5"), translated when it is one the service writes. */
export function marketNameLabel(name: string): string {
  const patterns: Array<[RegExp, MarketType]> = [
    [/^Match result$/i, 'match_result'],
    [/^Moneyline$/i, 'moneyline'],
    [/^Total over\/under (.+)$/i, 'totals'],
    [/^Handicap (.+)$/i, 'handicap'],
    [/^Both teams to score$/i, 'both_teams_to_score'],
    [/^Correct score$/i, 'correct_score'],
  ];
  for (const [pattern, type] of patterns) {
    const match = pattern.exec(name);
    if (match) return marketLabel(type, match[1] ?? null);
  }
  return name;
}

/**
 * A selection as players read it: "Home -1.5" becomes the home team with its line, "Draw", "Over 2.5", "Yes"
 * and "No" are translated; anything else (a team name, a correct score) is shown as the feed wrote it.
 */
export function selectionLabel(name: string, home: string, away: string, line?: string | null): string {
  const side = /^(Home|Away)(\s+.*)?$/i.exec(name);
  if (side) return `${side[1]!.toLowerCase() === 'home' ? home : away}${side[2] ?? ''}`;
  const total = /^(Over|Under)\s+(.+)$/i.exec(name);
  if (total) return t(total[1]!.toLowerCase() === 'over' ? 'outcome_over' : 'outcome_under', { line: total[2]! });
  if (/^draw$/i.test(name)) return t('outcome_draw');
  if (/^yes$/i.test(name)) return t('outcome_yes');
  if (/^no$/i.test(name)) return t('outcome_no');
  if (/^(over|under)$/i.test(name) && line) {
    return t(name.toLowerCase() === 'over' ? 'outcome_over' : 'outcome_under', { line });
  }
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
