import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { dateTime, money, odds } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Empty, Field, Page } from '../../ui/ui.tsx';
import { TenantScope } from './TenantScope.tsx';

type Bet = ApiResponse<'staffPlayerBets'>['bets'][number];
const KINDS = { externalPlayerId: 'byExternal', player: 'byPlayer', betId: 'byBet' } as const;
type Kind = keyof typeof KINDS;

/** Player and bet look-up: by the casino's player id, ours, or a bet id; each bet with its legs and money. */
export function Bets() {
  return (
    <Page title={t.bets.title}>
      <p class="muted">{t.bets.intro}</p>
      <TenantScope>{(tenantId) => <LookUp tenantId={tenantId} />}</TenantScope>
    </Page>
  );
}

function LookUp(props: { tenantId: string | undefined }) {
  const { query } = useValue(place);
  const kind = (Object.keys(KINDS) as Kind[]).find((name) => query.get(name)) ?? 'externalPlayerId';
  const value = query.get(kind) ?? '';
  const [typedKind, setTypedKind] = useState<Kind>(kind);
  const [typed, setTyped] = useState(value);
  const [open, setOpen] = useState<Bet | null>(null);
  const loaded = useLoad(async (signal) => {
    if (!value) return { rows: [] };
    const page = await call('staffPlayerBets', 'GET', '/api/v1/admin/bets', {
      query: {
        [kind]: value,
        tenantId: props.tenantId,
        order: listOrder(query),
        cursor: query.get('cursor') ?? undefined,
      },
      signal,
    });
    return { rows: page.bets, nextCursor: page.nextCursor || undefined };
  }, `${query.toString()}|${props.tenantId}`);
  return (
    <>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({
            externalPlayerId: undefined,
            player: undefined,
            betId: undefined,
            [typedKind]: typed.trim() || undefined,
          });
        }}
      >
        <Field label={t.bets.by}>
          {({ id }) => (
            <select id={id} value={typedKind} onChange={(e) => setTypedKind(e.currentTarget.value as Kind)}>
              {(Object.keys(KINDS) as Kind[]).map((name) => (
                <option value={name} key={name}>
                  {t.bets[KINDS[name]]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.bets.value}>
          {({ id }) => <input id={id} maxLength={64} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="button button-primary">
          {t.bets.find}
        </button>
      </form>
      {value ? (
        <Table<Bet>
          caption={t.bets.caption}
          loaded={loaded}
          rowKey={(bet) => bet.id}
          empty={t.bets.empty}
          columns={[
            {
              header: t.bets.bet,
              cell: (bet) => (
                <button type="button" class="link" onClick={() => setOpen(bet)}>
                  <code>{bet.id}</code>
                </button>
              ),
            },
            { header: t.bets.placed, cell: (bet) => dateTime(bet.placedAt), orders: true },
            { header: t.bets.status, cell: (bet) => <Badge>{t.bets.statuses[bet.status] ?? bet.status}</Badge> },
            { header: t.bets.stake, numeric: true, cell: (bet) => money(bet.stake, bet.currency) },
            { header: t.bets.odds, numeric: true, cell: (bet) => odds(bet.odds) },
            {
              header: t.bets.result,
              numeric: true,
              cell: (bet) => (bet.settledReturn === null ? '' : money(bet.settledReturn, bet.currency)),
            },
          ]}
        />
      ) : (
        <Empty>{t.bets.ask}</Empty>
      )}
      {open && <BetDialog bet={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function BetDialog(props: { bet: Bet; onClose: () => void }) {
  const { bet } = props;
  return (
    <Dialog title={t.bets.details(bet.id)} onClose={props.onClose}>
      <p>
        <Badge>{t.bets.statuses[bet.status] ?? bet.status}</Badge> {money(bet.stake, bet.currency)} @ {odds(bet.odds)} ·{' '}
        {dateTime(bet.placedAt)}
      </p>
      <p>
        {t.bets.player}: <code>{bet.externalPlayerId}</code> <span class="muted small">{bet.playerId}</span>
      </p>
      <h3>{t.bets.legs}</h3>
      <ul>
        {bet.legs.map((leg) => (
          <li key={leg.selectionId}>
            {leg.eventName} · {leg.marketName}: {leg.selectionName} @ {odds(leg.odds)}
            {leg.result ? ` · ${t.trading.results[leg.result]}` : ''}
          </li>
        ))}
      </ul>
      <h3>{t.bets.money}</h3>
      <ol class="timeline">
        {bet.money.map((posting) => (
          <li key={posting.txId}>
            <code>{posting.txId}</code> · {t.workspace.endpoints[posting.endpoint] ?? posting.endpoint}{' '}
            {money(posting.amount, bet.currency)} · {t.workspace.states[posting.status] ?? posting.status}
            {posting.holdReason ? ` (${t.workspace.holdReasons[posting.holdReason]})` : ''} ·{' '}
            {t.bets.attempts(posting.attempts)}
          </li>
        ))}
      </ol>
      <div class="form-actions">
        <button type="button" class="button button-primary" onClick={props.onClose}>
          {t.close}
        </button>
      </div>
    </Dialog>
  );
}
