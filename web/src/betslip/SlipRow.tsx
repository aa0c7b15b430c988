import { Icon } from '../components/icons.tsx';
import { refocus } from '../focus.ts';
import { t } from '../i18n/index.ts';
import { eventName, marketLabel, selectionLabel } from '../labels.ts';
import { go } from '../router.ts';
import { slipTitle } from './slip-focus.ts';
import type { SlipBet, SlipError } from './slip-rules.ts';
import { removeSelection, setStakeText } from './slip.ts';
import { SlipMessage } from './SlipMessage.tsx';
import { SlipPrice } from './SlipPrice.tsx';
import { SlipReturn } from './SlipReturn.tsx';
import { StakeInput } from './StakeInput.tsx';

/** A selection of the slip as its single: what it is, its price, remove, its stake and what it pays. */
export function SlipRow({ bet, error, failure }: { bet: SlipBet; error: SlipError | null; failure?: SlipError }) {
  const item = bet.items[0]!;
  const name = selectionLabel(item.selectionName, item.home, item.away, item.line);
  const flagged = error?.selectionId === item.selectionId || failure !== undefined;
  return (
    <li class={`slip-item${item.status !== 'open' ? ' blocked' : ''}${flagged ? ' has-error' : ''}`}>
      <div class="slip-item-head">
        <div class="slip-item-text">
          <p class="slip-selection">{name}</p>
          <p class="slip-market">{marketLabel(item.marketType, item.line)}</p>
          <p class="slip-event">
            {item.live && <span class="badge live small">{t('liveBadge')}</span>}
            <button type="button" class="link plain" onClick={() => go({ page: 'event', eventId: item.eventId })}>
              {eventName(item.home, item.away)}
            </button>
          </p>
        </div>
        <div class="slip-odds">
          <SlipPrice item={item} />
          <button
            type="button"
            class="icon-btn small"
            aria-label={t('removeSelection', { name })}
            onClick={() => {
              removeSelection(item.selectionId);
              refocus(slipTitle);
            }}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      </div>
      <div class="slip-item-stake">
        <StakeInput
          value={item.stakeText}
          label={t('stakeFor', { name })}
          onInput={(text) => setStakeText(item.selectionId, text)}
        />
        <SlipReturn bet={bet} />
        {failure && <SlipMessage error={failure} />}
      </div>
    </li>
  );
}
