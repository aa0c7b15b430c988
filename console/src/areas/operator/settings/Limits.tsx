import { useState } from 'preact/hooks';
import { amountInput, minorUnits } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { session } from '../../../session.ts';
import { useValue } from '../../../store.ts';
import { Field, refusal } from '../../../ui/ui.tsx';
import type { Tenant } from '../tenant.ts';
import { Saved, Section, useSave, type Update } from './section.tsx';

const LIMITS = ['minStake', 'maxStake', 'maxPayout', 'maxSelectionLiability', 'maxEventLiability'] as const;

/** The tenant's stake, payout and liability limits, and (for a platform administrator) its adjustment policy. */
export function Limits(props: { tenant: Tenant; tenantId: string | undefined; saved: () => void }) {
  const { tenant } = props;
  const platform = useValue(session)!.staff.role === 'platform_admin';
  const shown = (minor: number) => amountInput(minor, tenant.currency);
  const [limits, setLimits] = useState(Object.fromEntries(LIMITS.map((name) => [name, shown(tenant.limits[name])])));
  const [policy, setPolicy] = useState({
    maxAmount: shown(tenant.adjustments.maxAmount),
    approvalAbove: shown(tenant.adjustments.approvalAbove),
  });
  const [typo, setTypo] = useState<string | undefined>();
  const state = useSave(props.tenantId, props.saved);
  function submit(event: Event) {
    event.preventDefault();
    const minor = (text: string) => minorUnits(text, tenant.currency);
    const parsed = Object.fromEntries(LIMITS.map((name) => [name, minor(limits[name]!)]));
    const adjustments = { maxAmount: minor(policy.maxAmount), approvalAbove: minor(policy.approvalAbove) };
    const wrong = [...Object.entries(parsed), ...(platform ? Object.entries(adjustments) : [])].find(
      ([, value]) => value === null,
    );
    setTypo(wrong?.[0]);
    if (wrong) return;
    void state.save({
      limits: parsed as Update['limits'],
      ...(platform ? { adjustments: adjustments as Update['adjustments'] } : {}),
    });
  }
  // A rule between limits (minStake <= maxStake) names `limits` itself: it is said under the section, not a field.
  const refused = refusal(state.error, [
    ...LIMITS.map((name) => `limits.${name}`),
    'adjustments.maxAmount',
    'adjustments.approvalAbove',
  ]);
  const error = (name: string) =>
    typo === name
      ? t.adjustments.amountInvalid(shown(2500))
      : (refused.field(`limits.${name}`) ?? refused.field(`adjustments.${name}`));
  return (
    <Section id="limits-title" title={t.settings.limits}>
      <p class="muted">
        {t.settings.limitsHint} ({tenant.currency})
      </p>
      <form class="form form-grid" onSubmit={submit}>
        {LIMITS.map((name) => (
          <Field label={t.settings[name]} error={error(name)} key={name}>
            {({ id, invalid }) => (
              <input
                id={id}
                inputMode="decimal"
                aria-invalid={invalid}
                value={limits[name]}
                onInput={(e) => setLimits({ ...limits, [name]: e.currentTarget.value })}
              />
            )}
          </Field>
        ))}
        {platform && (
          <>
            <Field label={t.settings.maxAdjustment} error={error('maxAmount')}>
              {({ id, invalid }) => (
                <input
                  id={id}
                  inputMode="decimal"
                  aria-invalid={invalid}
                  value={policy.maxAmount}
                  onInput={(e) => setPolicy({ ...policy, maxAmount: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label={t.settings.approvalAbove} error={error('approvalAbove')}>
              {({ id, invalid }) => (
                <input
                  id={id}
                  inputMode="decimal"
                  aria-invalid={invalid}
                  value={policy.approvalAbove}
                  onInput={(e) => setPolicy({ ...policy, approvalAbove: e.currentTarget.value })}
                />
              )}
            </Field>
          </>
        )}
        <div class="form-actions">
          <Saved general={refused.general} done={state.done} />
          <button type="submit" class="button button-primary">
            {t.save}
          </button>
        </div>
      </form>
    </Section>
  );
}
