import { useEffect, useRef, useState } from 'preact/hooks';
import { slipStore, toggleSelection } from '../betslip/slip.ts';
import { formatOdds, t } from '../i18n/index.ts';
import { marketNameLabel, selectionOf } from '../labels.ts';
import { useStore } from '../store.ts';
import type { EventHeader, Market, Selection } from '../types.ts';
import { Icon } from './icons.tsx';
import './OddsButton.css';

/** How long a moved price stays highlighted. */
const FLASH_MS = 3_000;

/** The last price shown per selection, so a price that moved while the player was on another page still flashes. */
const lastSeen = new Map<string, string>();

/** The moved direction of a price since it was last shown, for a few seconds. */
function usePriceMove(id: string, odds: string): 'up' | 'down' | null {
  const [move, setMove] = useState<'up' | 'down' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const before = lastSeen.get(id);
    lastSeen.set(id, odds);
    if (before === undefined || before === odds) return;
    setMove(Number(odds) > Number(before) ? 'up' : 'down');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setMove(null), FLASH_MS);
  }, [id, odds]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return move;
}

interface Props {
  selection: Selection;
  market: Market;
  event: EventHeader;
  /** the text above the price; the full selection name when omitted */
  label?: string;
}

export function OddsButton({ selection, market, event, label }: Props) {
  const slip = useStore(slipStore);
  const selected = slip.items.some((item) => item.selectionId === selection.id);
  const move = usePriceMove(selection.id, selection.odds);
  const name = selectionOf(selection, market, event);
  const open = market.status === 'open' && (event.status === 'scheduled' || event.status === 'live');
  const price = formatOdds(selection.odds);
  const shown = label ?? name;
  // the name starts with the words on the button (WCAG 2.5.3), then what a short label ("1", "X") stands for, then
  // the market: "Brighton 1.41" of the match result and of draw no bet are two different bets
  const description = [
    `${shown} ${open ? price : t('suspended')}`,
    shown === name ? '' : name,
    marketNameLabel(market.name),
    open && move ? t(move === 'up' ? 'oddsUp' : 'oddsDown') : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <button
      type="button"
      class={`odds${selected ? ' selected' : ''}${move ? ` ${move}` : ''}`}
      aria-pressed={selected}
      aria-label={description}
      disabled={!open && !selected}
      onClick={() => toggleSelection(selection, market, event)}
      data-selection={selection.id}
    >
      <span class="odds-label">{shown}</span>{' '}
      {open ? (
        <span class="odds-price">
          {move && <Icon name={move} size={12} />}
          {price}
        </span>
      ) : (
        <span class="odds-price">
          <Icon name="lock" size={14} />
        </span>
      )}
    </button>
  );
}
