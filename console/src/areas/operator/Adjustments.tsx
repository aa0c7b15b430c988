import { useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { dateTime, money } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { session } from '../../session.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Field, Page } from '../../ui/ui.tsx';
import type { Adjustment } from './adjustments/adjustment.ts';
import { DecideDialog } from './adjustments/DecideDialog.tsx';
import { ProposeDialog } from './adjustments/ProposeDialog.tsx';
import { TenantScope } from './TenantScope.tsx';
import { loadTenant } from './tenant.ts';

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
        <ProposeDialog
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
        <DecideDialog
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
