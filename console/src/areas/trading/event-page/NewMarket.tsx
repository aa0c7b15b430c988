import { useState } from 'preact/hooks';
import { call, type ApiRequest } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormActions, FormError, refusal } from '../../../ui/ui.tsx';
import type { TradingEvent } from './event.ts';

type MarketType = ApiRequest<'createMarket'>['type'];
/** Every market type the API takes, each once: the compiler refuses one missing or one it does not know. */
const MARKET_TYPES = Object.keys({
  match_result: true,
  moneyline: true,
  totals: true,
  handicap: true,
  both_teams_to_score: true,
  correct_score: true,
  double_chance: true,
  draw_no_bet: true,
  half_time_result: true,
  first_half_moneyline: true,
  set_betting: true,
  first_set_winner: true,
} satisfies Record<MarketType, true>) as MarketType[];

/** "name, outcome, odds" per line, as the trader typed them. */
function selectionsOf(text: string) {
  return text
    .split('\n')
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter((parts) => parts.some(Boolean))
    .map(([name = '', outcome = '', odds = '']) => ({ name, outcome, odds }));
}

/** A market added to the event: its type, its line, and its selections one a line. */
export function NewMarket(props: { eventId: string; event: TradingEvent; created: () => void }) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<(typeof MARKET_TYPES)[number]>('match_result');
  const [line, setLine] = useState('');
  const [selections, setSelections] = useState(
    // the names are people's words, the outcomes the API's codes
    `${props.event.home}, home, 2.10\n${t.trading.drawSelection}, draw, 3.30\n${props.event.away}, away, 3.40`,
  );
  const [error, setError] = useState<Error | null>(null);
  async function submit(submitted: Event) {
    submitted.preventDefault();
    setError(null);
    try {
      await call('createMarket', 'POST', `/api/v1/admin/trading/events/${props.eventId}/markets`, {
        body: { type, ...(line.trim() ? { line: line.trim() } : {}), selections: selectionsOf(selections) },
      });
      setOpen(false);
      props.created();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['type', 'line', 'selections']);
  const fieldError = refused.field;
  return (
    <>
      <button type="button" class="button" onClick={() => setOpen(true)}>
        {t.trading.newMarket}
      </button>
      {open && (
        <Dialog title={t.trading.newMarket} onClose={() => setOpen(false)}>
          <form class="form" onSubmit={(submitted) => void submit(submitted)}>
            <FormError error={refused.general} />
            <Field label={t.trading.marketType} error={fieldError('type')}>
              {({ id }) => (
                <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value as typeof type)}>
                  {MARKET_TYPES.map((value) => (
                    <option value={value} key={value}>
                      {t.trading.marketTypes[value]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t.trading.line} hint={t.trading.lineHint} error={fieldError('line')}>
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  maxLength={10}
                  value={line}
                  onInput={(e) => setLine(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label={t.trading.selections} hint={t.trading.selectionsHint} error={fieldError('selections')}>
              {({ id, describedBy }) => (
                <textarea
                  id={id}
                  rows={4}
                  aria-describedby={describedBy}
                  value={selections}
                  onInput={(e) => setSelections(e.currentTarget.value)}
                />
              )}
            </Field>
            <FormActions onCancel={() => setOpen(false)} submit={t.trading.create} />
          </form>
        </Dialog>
      )}
    </>
  );
}
