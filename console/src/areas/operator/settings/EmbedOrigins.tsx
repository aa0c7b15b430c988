import { useState } from 'preact/hooks';
import { t } from '../../../messages.ts';
import { Field, refusal } from '../../../ui/ui.tsx';
import type { Tenant } from '../tenant.ts';
import { Saved, Section, useSave } from './section.tsx';

/** The exact origins of the casino pages that may frame the sportsbook, one a line. */
export function EmbedOrigins(props: { tenant: Tenant; tenantId: string | undefined; saved: () => void }) {
  const [origins, setOrigins] = useState(props.tenant.embedOrigins.join('\n'));
  const state = useSave(props.tenantId, props.saved);
  const refused = refusal(state.error, ['embedOrigins']);
  return (
    <Section id="embed-title" title={t.settings.general}>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void state.save({ embedOrigins: origins.split(/\s+/).filter(Boolean) });
        }}
      >
        <Field label={t.settings.embedOrigins} hint={t.settings.embedOriginsHint} error={refused.field('embedOrigins')}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={3}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={origins}
              onInput={(e) => setOrigins(e.currentTarget.value)}
            />
          )}
        </Field>
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
