import { useId } from 'preact/hooks';
import { dateTime, signedMoney, t, type MessageKey } from '../i18n/index.ts';
import type { Bet } from '../types.ts';

/** Movement kinds the player is shown by name; any other (a new kind) is shown as a plain movement. */
const MOVEMENT_KINDS = new Set(['bet', 'payout', 'refund', 'cashout', 'resettle', 'rollback']);

/** Each money movement of the bet, in delivery order: what it is, when, whether it is done, and its amount. */
export function BetMovements({ bet }: { bet: Bet }) {
  const titleId = useId();
  if (bet.movements.length === 0) return null;
  return (
    <section class="bet-movements" aria-labelledby={titleId}>
      <h3 id={titleId} class="bet-movements-title">
        {t('movements')}
      </h3>
      <ul>
        {bet.movements.map((movement) => {
          const kind = MOVEMENT_KINDS.has(movement.kind) ? movement.kind : 'other';
          return (
            <li key={movement.txId} class="bet-movement">
              <div>
                <p>{t(`movement_${kind}` as MessageKey)}</p>
                <p class="muted small">
                  <span>{dateTime(movement.at)} · </span>
                  <span class={`movement-status ${movement.status}`}>{t(`movementStatus_${movement.status}`)}</span>
                </p>
              </div>
              <strong class={`movement-amount ${movement.direction}`}>
                {signedMoney(movement.direction === 'debit' ? -movement.amount : movement.amount)}
              </strong>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
