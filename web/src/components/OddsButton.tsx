import { useEffect, useState } from 'preact/hooks';
import { slipStore, toggleSelection } from '../betslip/slip.ts';
import { formatOdds, t } from '../i18n/index.ts';
import { marketNameLabel, selectionOf } from '../labels.ts';
import { useStoreSelect } from '../store.ts';
import type { EventHeader, Market, Selection } from '../types.ts';
import { Icon } from './icons.tsx';
import './OddsButton.css';

/** The last price shown per selection, so a price that moved while the player was on another page still flashes. */
const lastSeen = new Map<string, string>();

/**
 * The direction of the price's last move while shown, and the how-manieth move it was. The highlight is CSS alone
 * (OddsButton.css: it shows for 3 s and goes, with no timer and no render of its own); the count alternates the
 * animation's name so that a second move the same way starts it again.
 */
function usePriceMove(id: string, odds: string): { move: 'up' | 'down' | null; count: number } {
  const [state, setState] = useState<{ move: 'up' | 'down' | null; count: number }>({ move: null, count: 0 });
  useEffect(() => {
    const before = lastSeen.get(id);
    lastSeen.set(id, odds);
    if (before === undefined || before === odds) return;
    const move = Number(odds) > Number(before) ? 'up' : 'down';
    setState((current) => ({ move, count: current.count + 1 }));
  }, [id, odds]);
  return state;
}

interface Props {
  selection: Selection;
  market: Market;
  event: EventHeader;
  /** the text above the price; the full selection name when omitted */
  label?: string;
}

export function OddsButton({ selection, market, event, label }: Props) {
  const selected = useStoreSelect(slipStore, (slip) => slip.items.some((item) => item.selectionId === selection.id));
  const { move, count } = usePriceMove(selection.id, selection.odds);
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
      class={`odds${selected ? ' selected' : ''}${move ? ` ${move} moved-${count % 2}` : ''}`}
      aria-pressed={selected}
      aria-label={description}
      disabled={!open && !selected}
      onClick={() => toggleSelection(selection, market, event)}
      data-selection={selection.id}
    >
      <span class="odds-label">{shown}</span>{' '}
      {open ? (
        <span class="odds-price">
          {move && (
            <span class="odds-move">
              <Icon name={move} size={12} />
            </span>
          )}
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
