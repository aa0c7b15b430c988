import { Icon } from '../components/icons.tsx';
import { formatOdds, t } from '../i18n/index.ts';
import { oddsMilli, type SlipItem } from './slip-rules.ts';

/** The price of a selection: as it is, moved (with its direction), or moved and waiting for the player. */
export function SlipPrice({ item }: { item: SlipItem }) {
  if (item.status !== 'open') {
    return <span class="badge muted">{item.status === 'suspended' ? t('suspended') : t('slipUnavailable')}</span>;
  }
  if (item.odds !== item.accepted) {
    const up = oddsMilli(item.odds) > oddsMilli(item.accepted);
    return (
      <span class={`odds-change ${up ? 'up' : 'down'}`}>
        <s>{formatOdds(item.accepted)}</s>
        <Icon name={up ? 'up' : 'down'} size={12} />
        <span class="visually-hidden">{t(up ? 'oddsUp' : 'oddsDown')}</span>
        <strong>{formatOdds(item.odds)}</strong>
      </span>
    );
  }
  const move = item.previous === undefined ? null : oddsMilli(item.odds) > oddsMilli(item.previous) ? 'up' : 'down';
  return (
    <strong class={`slip-price${move ? ` ${move}` : ''}`}>
      {move && <Icon name={move} size={12} />}
      {formatOdds(item.odds)}
      {move && <span class="visually-hidden">, {t(move === 'up' ? 'oddsUp' : 'oddsDown')}</span>}
    </strong>
  );
}
