import { dateTime, formatOdds, money, t } from '../i18n/index.ts';
import { eventName, marketNameLabel, selectionLabel, teamsOf } from '../labels.ts';
import { go } from '../router.ts';
import type { Bet } from '../types.ts';
import { isOpenBet, paidOut } from '../watch.ts';
import { BetMovements } from './BetMovements.tsx';
import { CashOut } from './CashOut.tsx';

/** What the bet's wallet movements still owe the player: credits being delivered. */
function owed(bet: Bet): number {
  return bet.movements
    .filter((movement) => movement.direction === 'credit' && movement.status === 'owed')
    .reduce((sum, movement) => sum + movement.amount, 0);
}

function statusClass(bet: Bet): string {
  if (bet.status === 'won' || bet.status === 'half_won') return 'won';
  if (bet.status === 'lost' || bet.status === 'half_lost') return 'lost';
  if (bet.status === 'cashed_out' || bet.status === 'partially_cashed_out') return 'cashed';
  return 'neutral';
}

/** One bet of My Bets: its legs, figures, cash-outs so far, money movements, what is still owed, and cash-out. */
export function BetCard({ bet }: { bet: Bet }) {
  const open = isOpenBet(bet);
  const pending = owed(bet);
  const acca = bet.legs.length > 1;
  const kind = bet.legs.length === 1 ? t('single') : t('accaLegs', { n: bet.legs.length });
  // after a partial cash-out the stake that still rides is what the return is on: said as such, the whole beside it
  const partlyCashed = open && bet.remainingStake < bet.stake;
  return (
    <article class="card bet-card" aria-label={`${kind}, ${t(`status_${bet.status}`)}`}>
      <header class="bet-head">
        <div>
          <p class="bet-kind">{kind}</p>
          <p class="muted small">{t('placedAt', { date: dateTime(bet.placedAt) })}</p>
        </div>
        <span class={`badge status ${statusClass(bet)}`}>{t(`status_${bet.status}`)}</span>
      </header>
      <ul class="bet-legs">
        {bet.legs.map((leg) => {
          const [home, away] = teamsOf(leg.eventName);
          return (
            <li key={leg.selectionId} class="bet-leg">
              <div>
                <p class="strong">{selectionLabel(leg.selectionName, home, away)}</p>
                <p class="muted small">{marketNameLabel(leg.marketName)}</p>
                <button
                  type="button"
                  class="link plain small"
                  onClick={() => go({ page: 'event', eventId: leg.eventId })}
                >
                  {eventName(home, away)}
                </button>
              </div>
              <div class="bet-leg-side">
                <strong>{formatOdds(leg.odds)}</strong>
                {leg.result ? (
                  <span class={`badge leg ${leg.result}`}>{t(`legResult_${leg.result}`)}</span>
                ) : (
                  acca && <span class="badge leg open">{t('legResult_open')}</span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <dl class="figures">
        {partlyCashed ? (
          <div>
            <dt>{t('stakeLeft')}</dt>
            <dd>
              {money(bet.remainingStake)}
              <span class="muted small"> {t('stakeOf', { stake: money(bet.stake) })}</span>
            </dd>
          </div>
        ) : (
          <div>
            <dt>{t('stake')}</dt>
            <dd>{money(bet.stake)}</dd>
          </div>
        )}
        <div>
          <dt>{t('odds')}</dt>
          <dd>{formatOdds(bet.odds)}</dd>
        </div>
        <div>
          <dt>{open ? t('toReturn') : t('returned')}</dt>
          <dd class="strong">{money(open ? bet.potentialPayout : paidOut(bet))}</dd>
        </div>
      </dl>
      {bet.cashOuts.map((cashOut) => (
        <p class="muted small" key={cashOut.at}>
          {t('cashedOutPart', { amount: money(cashOut.amount), stake: money(cashOut.stake) })}
        </p>
      ))}
      <BetMovements bet={bet} />
      {pending > 0 && <p class="notice info small">{t('owed', { amount: money(pending) })}</p>}
      {open && <CashOut key={`${bet.id}:${bet.remainingStake}`} bet={bet} />}
    </article>
  );
}
