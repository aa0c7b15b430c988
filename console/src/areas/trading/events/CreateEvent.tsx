import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { href, navigate } from '../../../router.ts';
import { Dialog, Field, FormActions, FormError, refusal } from '../../../ui/ui.tsx';

type Competition = ApiResponse<'listTradingCompetitions'>['competitions'][number];

/** A new event in one of the listed competitions; once created, its page opens. */
export function CreateEvent(props: { competitions: Competition[]; onClose: () => void }) {
  const [form, setForm] = useState({
    competitionId: props.competitions[0]?.id ?? '',
    home: '',
    away: '',
    startsAt: '',
  });
  const [error, setError] = useState<Error | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const created = await call('createEvent', 'POST', '/api/v1/admin/trading/events', {
        body: {
          ...form,
          home: form.home.trim(),
          away: form.away.trim(),
          startsAt: new Date(form.startsAt).toISOString(),
        },
      });
      props.onClose();
      navigate(href(`/trading/events/${created.event.id}`));
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['competitionId', 'home', 'away', 'startsAt']);
  const fieldError = refused.field;
  return (
    <Dialog title={t.trading.newEvent} onClose={props.onClose}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <Field label={t.trading.competition} error={fieldError('competitionId')}>
          {({ id }) => (
            <select
              id={id}
              required
              value={form.competitionId}
              onChange={(e) => setForm({ ...form, competitionId: e.currentTarget.value })}
            >
              {props.competitions.map((competition) => (
                <option value={competition.id} key={competition.id}>
                  {competition.name} ({competition.sport.name})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.trading.home} error={fieldError('home')}>
          {({ id }) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.home}
              onInput={(e) => setForm({ ...form, home: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.trading.away} error={fieldError('away')}>
          {({ id }) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.away}
              onInput={(e) => setForm({ ...form, away: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.trading.startsAt} error={fieldError('startsAt')}>
          {({ id }) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={form.startsAt}
              onInput={(e) => setForm({ ...form, startsAt: e.currentTarget.value })}
            />
          )}
        </Field>
        <FormActions onCancel={props.onClose} submit={t.trading.create} />
      </form>
    </Dialog>
  );
}
