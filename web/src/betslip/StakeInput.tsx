import { useId } from 'preact/hooks';
import { currencySymbol, majorInput, money, t } from '../i18n/index.ts';
import { useStore } from '../store.ts';
import { stakeOf } from './slip-rules.ts';
import { addQuickStake, quickStakes, quickStakesStore, stakeLimits } from './slip.ts';

/** A stake field with its quick stakes: each adds its amount to the stake, within the tenant's stake range. */
export function StakeInput({
  value,
  label,
  onInput,
}: {
  value: string;
  label: string;
  onInput: (text: string) => void;
}) {
  const id = useId();
  useStore(quickStakesStore);
  const limits = useStore(stakeLimits);
  const current = stakeOf(value);
  const atMaximum = limits !== null && current !== null && current >= limits.maxStake;
  return (
    <div class="stake">
      <label for={id} class="stake-label">
        {label}
      </label>
      <div class="stake-field">
        <span class="stake-currency" aria-hidden="true">
          {currencySymbol()}
        </span>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={majorInput(0)}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      </div>
      <div class="quick-stakes" role="group" aria-label={t('quickStakes')}>
        {quickStakes().map((amount) => (
          <button
            key={amount}
            type="button"
            class="chip small"
            disabled={atMaximum}
            onClick={() => onInput(majorInput(addQuickStake(current, amount)))}
          >
            +{money(amount)}
          </button>
        ))}
      </div>
    </div>
  );
}
