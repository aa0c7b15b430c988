import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime, milliseconds, minorUnits, money } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormError, Page, refusal } from '../../ui/ui.tsx';
import { TenantScope } from './TenantScope.tsx';

type Obligation = ApiResponse<'listObligations'>['obligations'][number];
type Action = Obligation['actions'][number];

const STATES = ['held', 'pending', 'unknown', 'sending', 'applied', 'refused', 'resolved', 'cancelled'];

/** The operator workspace: movements by state, each with its attempts and history, and the three decisions. */
export function Workspace() {
  return (
    <Page title={t.workspace.title}>
      <p class="muted">{t.workspace.intro}</p>
      <TenantScope>{(tenantId) => <Obligations tenantId={tenantId} />}</TenantScope>
    </Page>
  );
}

function Obligations(props: { tenantId: string | undefined }) {
  const { query } = useValue(place);
  const filter = {
    state: query.get('state') ?? 'held',
    player: query.get('player') ?? undefined,
    bet: query.get('bet') ?? undefined,
    order: listOrder(query),
    cursor: query.get('cursor') ?? undefined,
  };
  const [open, setOpen] = useState<Obligation | null>(null);
  const loaded = useLoad(
    async (signal) => {
      const page = await call('listObligations', 'GET', '/api/v1/admin/obligations', {
        query: { ...filter, state: filter.state === 'all' ? undefined : filter.state, tenantId: props.tenantId },
        signal,
      });
      return { rows: page.obligations, nextCursor: page.nextCursor || undefined };
    },
    JSON.stringify([filter, props.tenantId]),
  );
  const counts = useLoad(
    (signal) =>
      call('countObligations', 'GET', '/api/v1/admin/obligations/counts', {
        query: { tenantId: props.tenantId },
        signal,
      }),
    `${props.tenantId}|${loaded.state}`,
  );
  return (
    <>
      <Filters state={filter.state} player={filter.player} bet={filter.bet} counts={counts.data?.states} />
      <Table<Obligation>
        caption={t.workspace.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.workspace.empty}
        columns={[
          {
            header: t.workspace.movement,
            cell: (row) => (
              <button type="button" class="link" onClick={() => setOpen(row)}>
                <code>{row.txId}</code>
              </button>
            ),
          },
          { header: t.workspace.state, cell: (row) => <StateBadge obligation={row} /> },
          { header: t.workspace.player, cell: (row) => row.externalPlayerId },
          {
            header: t.workspace.amount,
            numeric: true,
            cell: (row) => `${row.endpoint === 'debit' ? '−' : ''}${money(row.amount, row.currency)}`,
          },
          { header: t.workspace.attempts, numeric: true, cell: (row) => row.attempts },
          { header: t.workspace.created, cell: (row) => dateTime(row.createdAt), orders: true },
        ]}
      />
      {open && (
        <ObligationDialog
          obligation={open}
          onClose={(changed) => {
            setOpen(null);
            if (changed) loaded.reload();
          }}
        />
      )}
    </>
  );
}

function StateBadge(props: { obligation: Obligation }) {
  const { status, holdReason } = props.obligation;
  const tone = status === 'applied' || status === 'resolved' ? 'good' : status === 'held' ? 'bad' : 'neutral';
  const label = t.workspace.states[status] ?? status;
  return <Badge tone={tone}>{holdReason ? `${label}: ${t.workspace.holdReasons[holdReason]}` : label}</Badge>;
}

function Filters(props: {
  state: string;
  player: string | undefined;
  bet: string | undefined;
  /** How many movements each state holds now, shown beside its name. */
  counts: Record<string, number> | undefined;
}) {
  const [player, setPlayer] = useState(props.player ?? '');
  const [bet, setBet] = useState(props.bet ?? '');
  return (
    <form
      class="filters"
      onSubmit={(event) => {
        event.preventDefault();
        setQuery({ player: player.trim() || undefined, bet: bet.trim() || undefined });
      }}
    >
      <Field label={t.workspace.state}>
        {({ id }) => (
          <select id={id} value={props.state} onChange={(e) => setQuery({ state: e.currentTarget.value })}>
            {STATES.map((state) => (
              <option value={state} key={state}>
                {t.workspace.states[state]}
                {props.counts ? ` (${count(props.counts[state] ?? 0)})` : ''}
              </option>
            ))}
            <option value="all">{t.workspace.allStates}</option>
          </select>
        )}
      </Field>
      <Field label={t.workspace.filterPlayer}>
        {({ id }) => <input id={id} maxLength={64} value={player} onInput={(e) => setPlayer(e.currentTarget.value)} />}
      </Field>
      <Field label={t.workspace.filterBet}>
        {({ id }) => <input id={id} maxLength={64} value={bet} onInput={(e) => setBet(e.currentTarget.value)} />}
      </Field>
      <button type="submit" class="button">
        {t.apply}
      </button>
    </form>
  );
}

function ObligationDialog(props: { obligation: Obligation; onClose: (changed: boolean) => void }) {
  const { obligation } = props;
  const [action, setAction] = useState<Action | null>(null);
  const [reason, setReason] = useState('');
  const [collected, setCollected] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [collectedInvalid, setCollectedInvalid] = useState(false);
  const amount = money(obligation.amount, obligation.currency);
  async function decide(event: Event) {
    event.preventDefault();
    if (!action) return;
    setError(null);
    const part = action === 'resolve' && collected.trim() ? minorUnits(collected, obligation.currency) : undefined;
    setCollectedInvalid(part === null || (part !== undefined && part > obligation.amount));
    if (part === null || (part !== undefined && part > obligation.amount)) return;
    const operation = ({ retry: 'retryObligation', resolve: 'resolveObligation', cancel: 'cancelObligation' } as const)[
      action
    ];
    try {
      await call(operation, 'POST', `/api/v1/admin/obligations/${obligation.id}/${action}`, {
        body: {
          ...(reason.trim() ? { reason: reason.trim() } : {}),
          ...(part === undefined ? {} : { collected: part }),
        },
      });
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['reason', 'collected']);
  return (
    <Dialog title={obligation.txId} onClose={() => props.onClose(false)}>
      <p>
        <StateBadge obligation={obligation} /> {money(obligation.amount, obligation.currency)} ·{' '}
        {t.workspace.endpoints[obligation.endpoint] ?? obligation.endpoint} · {obligation.externalPlayerId}
      </p>
      {obligation.writtenOff !== null && (
        <p class="notice">{t.workspace.writtenOff(money(obligation.writtenOff, obligation.currency))}</p>
      )}
      {obligation.inFlight && <p class="notice">{t.workspace.inFlight}</p>}
      <h3>{t.workspace.request}</h3>
      <p>
        <code>
          POST {obligation.walletUrl}/{obligation.endpoint}
        </code>
      </p>
      <pre class="request-body">{obligation.body}</pre>
      <h3>{t.workspace.calls}</h3>
      {obligation.calls.length === 0 ? (
        <p class="muted">{t.workspace.noCalls}</p>
      ) : (
        <ol class="timeline">
          {obligation.calls.map((attempt) => (
            <li key={attempt.at}>
              {dateTime(attempt.at)}:{' '}
              {attempt.httpStatus === null
                ? t.workspace.noAnswer
                : t.workspace.call(String(attempt.httpStatus), attempt.outcome)}
              {attempt.operatorCode ? ` · ${attempt.operatorCode}` : ''}
              {attempt.reason ? ` · ${attempt.reason}` : ''} · {milliseconds(attempt.durationMs)}
            </li>
          ))}
        </ol>
      )}
      <h3>{t.workspace.history}</h3>
      <ol class="timeline">
        {obligation.history.map((change, index) => (
          <li key={index}>
            {dateTime(change.at)}: {change.from ? `${t.workspace.states[change.from]} → ` : ''}
            {t.workspace.states[change.to]} · {t.audit.actors[change.by.type] ?? change.by.type} {change.by.id} ·{' '}
            {change.cause}
            {change.note ? ` · ${change.note}` : ''}
          </li>
        ))}
      </ol>
      {action ? (
        <form class="form" onSubmit={(event) => void decide(event)}>
          <p>{t.workspace.confirm[action]}</p>
          <FormError error={refused.general} />
          <Field label={t.workspace.reason} hint={t.workspace.reasonHint} error={refused.field('reason')}>
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                rows={2}
                maxLength={500}
                required={action !== 'retry' && !(action === 'cancel' && !obligation.requestSent)}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                value={reason}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
            )}
          </Field>
          {action === 'resolve' && partInPossible(obligation) && (
            <Field
              label={t.workspace.collected}
              hint={t.workspace.collectedHint(amount)}
              error={collectedInvalid ? t.workspace.collectedInvalid(amount) : refused.field('collected')}
            >
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  inputMode="decimal"
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={collected}
                  onInput={(e) => setCollected(e.currentTarget.value)}
                />
              )}
            </Field>
          )}
          <div class="form-actions">
            <button type="button" class="button" onClick={() => setAction(null)}>
              {t.cancel}
            </button>
            <button type="submit" class={`button ${action === 'retry' ? 'button-primary' : 'button-danger'}`}>
              {t.workspace[action]}
            </button>
          </div>
        </form>
      ) : (
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose(false)}>
            {t.close}
          </button>
          {obligation.actions.map((name) => (
            <button type="button" class="button button-primary" key={name} onClick={() => setAction(name)}>
              {t.workspace[name]}
            </button>
          ))}
        </div>
      )}
      {!action && <WhyActions obligation={obligation} />}
    </Dialog>
  );
}

/** What each decision offered does, and why each other is not offered (the API's reason, in the staff's words). */
function WhyActions(props: { obligation: Obligation }) {
  const { actions, withheld } = props.obligation;
  if (actions.length === 0 && withheld.length === 0) return null;
  return (
    <ul class="muted small">
      {actions.map((name) => (
        <li key={name}>{t.workspace.offered[name]}</li>
      ))}
      {withheld.map((entry) => (
        <li key={entry.action}>
          {t.workspace.notOffered(
            t.workspace[entry.action],
            t.workspace.withheldReasons[entry.reason] ?? entry.message,
          )}
        </li>
      ))}
    </ul>
  );
}

/** A debit not superseded may be resolved in part (the API's rule, review-rules.ts): the rest is written off. */
function partInPossible(obligation: Obligation): boolean {
  return obligation.endpoint === 'debit' && !obligation.holdReason?.startsWith('obsolete_');
}
