import { useMemo, useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { amountInput, dateTime, minorUnits, money } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { session } from '../../session.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormActions, FormError, Page, refusal } from '../../ui/ui.tsx';
import { TenantScope } from './TenantScope.tsx';
import { loadTenant } from './tenant.ts';

type Adjustment = ApiResponse<'listAdjustments'>['adjustments'][number];
const STATUSES = ['proposed', 'approved', 'rejected'] as const;

/** Manual credits and debits: propose one, and decide someone else's proposals (four eyes). */
export function Adjustments() {
  return (
    <Page title={t.adjustments.title}>
      <p class="muted">{t.adjustments.intro}</p>
      <TenantScope>{(tenantId) => <AdjustmentList tenantId={tenantId} />}</TenantScope>
    </Page>
  );
}

function AdjustmentList(props: { tenantId: string | undefined }) {
  const { query } = useValue(place);
  const me = useValue(session)!.staff.id;
  const status = query.get('status') ?? 'proposed';
  const [proposing, setProposing] = useState(false);
  // what the last proposal became: approved at once, or waiting for a second person (it may not be in this list)
  const [made, setMade] = useState<Adjustment | null>(null);
  const [deciding, setDeciding] = useState<{ adjustment: Adjustment; action: 'approve' | 'reject' } | null>(null);
  const tenant = useLoad((signal) => loadTenant(props.tenantId, signal), props.tenantId ?? '');
  const loaded = useLoad(async (signal) => {
    const page = await call('listAdjustments', 'GET', '/api/v1/admin/adjustments', {
      query: {
        status: status === 'all' ? undefined : status,
        tenantId: props.tenantId,
        order: listOrder(query),
        cursor: query.get('cursor') ?? undefined,
      },
      signal,
    });
    return { rows: page.adjustments, nextCursor: page.nextCursor || undefined };
  }, `${query.toString()}|${props.tenantId}`);
  return (
    <>
      <div class="filters">
        <Field label={t.adjustments.status}>
          {({ id }) => (
            <select id={id} value={status} onChange={(e) => setQuery({ status: e.currentTarget.value })}>
              {STATUSES.map((value) => (
                <option value={value} key={value}>
                  {t.adjustments.statuses[value]}
                </option>
              ))}
              <option value="all">{t.adjustments.all}</option>
            </select>
          )}
        </Field>
        <button type="button" class="button button-primary" disabled={!tenant.data} onClick={() => setProposing(true)}>
          {t.adjustments.propose}
        </button>
      </div>
      {tenant.data && <p class="muted">{policyLine(tenant.data)}</p>}
      <p role="status" class={made ? 'notice' : 'visually-hidden'}>
        {made && madeNote(made)}
      </p>
      <Table<Adjustment>
        caption={t.adjustments.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.adjustments.empty}
        columns={[
          {
            header: t.adjustments.player,
            cell: (row) => (
              <>
                <code>{row.externalPlayerId}</code> <span class="muted small">{row.playerId}</span>
              </>
            ),
          },
          {
            header: t.adjustments.amount,
            numeric: true,
            cell: (row) =>
              `${row.direction === 'debit' ? '−' : ''}${money(row.amount, row.currency)} ${t.adjustments.directionWord[row.direction]}`,
          },
          { header: t.adjustments.reason, cell: (row) => row.reason },
          {
            header: t.adjustments.by,
            orders: true,
            cell: (row) => (
              <span>
                {/* the casino's sandbox server is no staff member: it makes adjustments through the sandbox controls */}
                {row.madeBy === 'sandbox_server' ? t.adjustments.sandboxServer : (row.createdByEmail ?? row.createdBy)}
                <br />
                <span class="muted">{dateTime(row.createdAt)}</span>
              </span>
            ),
          },
          {
            header: t.adjustments.status,
            cell: (row) =>
              row.status !== 'proposed' ? (
                <span>
                  <Badge tone={row.status === 'approved' ? 'good' : 'bad'}>{t.adjustments.statuses[row.status]}</Badge>
                  {/* who decided, by the e-mail people know them by; nobody within the threshold (approved at once) */}
                  <br />
                  <span class="muted small">
                    {row.decision
                      ? t.adjustments.decidedBy(row.decision.byEmail ?? row.decision.by)
                      : row.madeBy === 'sandbox_server'
                        ? t.adjustments.sandboxApproved
                        : t.adjustments.withinThreshold}
                  </span>
                </span>
              ) : row.createdBy === me ? (
                <span class="muted">{t.adjustments.yours}</span>
              ) : (
                <span class="row-actions">
                  <button
                    type="button"
                    class="button button-small button-primary"
                    onClick={() => setDeciding({ adjustment: row, action: 'approve' })}
                  >
                    {t.adjustments.approve}
                  </button>
                  <button
                    type="button"
                    class="button button-small button-danger"
                    onClick={() => setDeciding({ adjustment: row, action: 'reject' })}
                  >
                    {t.adjustments.reject}
                  </button>
                </span>
              ),
          },
        ]}
      />
      {proposing && tenant.data && (
        <Propose
          tenantId={tenant.data.id}
          currency={tenant.data.currency}
          onClose={(adjustment) => {
            setProposing(false);
            if (!adjustment) return;
            setMade(adjustment);
            loaded.reload();
          }}
        />
      )}
      {deciding && (
        <Decide
          {...deciding}
          onClose={(done) => {
            setDeciding(null);
            if (done) loaded.reload();
          }}
        />
      )}
    </>
  );
}

/** The tenant's bounds on adjustments, in its currency. */
function policyLine(tenant: Awaited<ReturnType<typeof loadTenant>>): string {
  const { maxAmount, approvalAbove } = tenant.adjustments;
  const max = money(maxAmount, tenant.currency);
  if (approvalAbove === 0) return t.adjustments.policyEveryone(max);
  return t.adjustments.policy(money(approvalAbove, tenant.currency), max);
}

/** What a proposal became, said once its dialog closes. */
function madeNote(adjustment: Adjustment): string {
  const say = adjustment.status === 'approved' ? t.adjustments.madeApproved : t.adjustments.madeProposed;
  const direction = t.adjustments.directionWord[adjustment.direction];
  return say(money(adjustment.amount, adjustment.currency), direction, adjustment.externalPlayerId);
}

function Propose(props: { tenantId: string; currency: string; onClose: (made: Adjustment | null) => void }) {
  const [form, setForm] = useState({
    player: '',
    by: 'external' as 'external' | 'ours',
    direction: 'credit' as 'credit' | 'debit',
    amount: '',
    reason: '',
  });
  const [error, setError] = useState<Error | null>(null);
  // an amount the console cannot read: said beside the field in the language shown then
  const [amountUnreadable, setAmountUnreadable] = useState(false);
  const example = amountInput(2500, props.currency);
  // One key per dialog: a double click or a retry after a lost answer is the same adjustment.
  const idempotencyKey = useMemo(() => `console-${crypto.randomUUID()}`, []);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    const amount = minorUnits(form.amount, props.currency);
    setAmountUnreadable(amount === null || amount < 1);
    if (amount === null || amount < 1) return;
    try {
      const answer = await call('createAdjustment', 'POST', '/api/v1/admin/adjustments', {
        headers: { 'idempotency-key': idempotencyKey },
        body: {
          // the casino's id, as its staff know the player, in the tenant on screen; or ours
          ...(form.by === 'external'
            ? { externalPlayerId: form.player.trim(), tenantId: props.tenantId }
            : { playerId: form.player.trim() }),
          direction: form.direction,
          amount,
          reason: form.reason.trim(),
        },
      });
      props.onClose(answer.adjustment);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['playerId', 'externalPlayerId', 'amount', 'reason']);
  const fieldError = refused.field;
  return (
    <Dialog title={t.adjustments.propose} onClose={() => props.onClose(null)}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <fieldset>
          <legend>{t.adjustments.findBy}</legend>
          {(['external', 'ours'] as const).map((by) => (
            <label class="check" key={by}>
              <input type="radio" name="by" checked={form.by === by} onChange={() => setForm({ ...form, by })} />
              {t.adjustments.by_[by]}
            </label>
          ))}
        </fieldset>
        <Field
          label={form.by === 'external' ? t.adjustments.externalPlayer : t.adjustments.player}
          error={fieldError(form.by === 'external' ? 'externalPlayerId' : 'playerId') ?? fieldError('playerId')}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              maxLength={form.by === 'external' ? 128 : 64}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.player}
              onInput={(e) => setForm({ ...form, player: e.currentTarget.value })}
            />
          )}
        </Field>
        <fieldset>
          <legend>{t.adjustments.direction}</legend>
          {(['credit', 'debit'] as const).map((direction) => (
            <label class="check" key={direction}>
              <input
                type="radio"
                name="direction"
                checked={form.direction === direction}
                onChange={() => setForm({ ...form, direction })}
              />
              {t.adjustments[direction]}
            </label>
          ))}
        </fieldset>
        <Field
          label={t.adjustments.amount}
          hint={t.adjustments.amountHint(props.currency, example)}
          error={amountUnreadable ? t.adjustments.amountInvalid(example) : fieldError('amount')}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              inputMode="decimal"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.amount}
              onInput={(e) => setForm({ ...form, amount: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.adjustments.reason} hint={t.adjustments.reasonHint} error={fieldError('reason')}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              required
              rows={2}
              maxLength={500}
              aria-describedby={describedBy}
              value={form.reason}
              onInput={(e) => setForm({ ...form, reason: e.currentTarget.value })}
            />
          )}
        </Field>
        <FormActions onCancel={() => props.onClose(null)} submit={t.adjustments.submit} />
      </form>
    </Dialog>
  );
}

function Decide(props: { adjustment: Adjustment; action: 'approve' | 'reject'; onClose: (done: boolean) => void }) {
  const { adjustment, action } = props;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const label = action === 'approve' ? t.adjustments.approve : t.adjustments.reject;
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const path = `/api/v1/admin/adjustments/${adjustment.id}/${action}`;
      if (action === 'approve') {
        await call('approveAdjustment', 'POST', path, { body: reason.trim() ? { reason: reason.trim() } : {} });
      } else {
        await call('rejectAdjustment', 'POST', path, { body: { reason: reason.trim() } });
      }
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  return (
    <Dialog title={t.adjustments.decide(label)} onClose={() => props.onClose(false)}>
      <p>
        {adjustment.direction === 'debit' ? '−' : ''}
        {money(adjustment.amount, adjustment.currency)} · <code>{adjustment.externalPlayerId}</code> (
        {adjustment.playerId}) · {adjustment.reason}
      </p>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={error} />
        <Field label={t.adjustments.decisionReason} hint={t.adjustments.decisionReasonHint}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              rows={2}
              maxLength={500}
              required={action === 'reject'}
              aria-describedby={describedBy}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose(false)}>
            {t.cancel}
          </button>
          <button type="submit" class={`button ${action === 'approve' ? 'button-primary' : 'button-danger'}`}>
            {label}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
