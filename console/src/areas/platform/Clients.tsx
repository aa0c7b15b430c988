import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { href, place, setQuery } from '../../router.ts';
import { useValue } from '../../store.ts';
import { Confirm } from '../../ui/Confirm.tsx';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Empty, Failure, Field, Loading, Page } from '../../ui/ui.tsx';

type ClientRow = ApiResponse<'adminListClients'>['clients'][number];
type ClientAnswer = ApiResponse<'adminGetClient'>;
type Environment = ClientAnswer['client']['production'];

/** A client's or an environment's status; a client that was never activated waits for its aggregator. */
function StatusBadge(props: { status: 'active' | 'suspended'; activatedAt?: string | null }) {
  const status = props.activatedAt === null ? 'awaiting' : props.status;
  return (
    <Badge tone={status === 'active' ? 'good' : status === 'awaiting' ? 'neutral' : 'bad'}>
      {t.clients.statuses[status]}
    </Badge>
  );
}

/** Clients across aggregators: searched and filtered on the server, each with its two environments. */
export function Clients() {
  const { query } = useValue(place);
  const [q, setQ] = useState(query.get('q') ?? '');
  const aggregators = useLoad(
    (signal) => call('listAggregators', 'GET', '/api/v1/admin/aggregators', { signal }),
    'aggregators',
  );
  const loaded = useLoad(async (signal) => {
    const page = await call('adminListClients', 'GET', '/api/v1/admin/clients', {
      query: {
        q: query.get('q') ?? undefined,
        aggregatorId: query.get('aggregator') ?? undefined,
        status: query.get('status') ?? undefined,
        order: listOrder(query),
        cursor: query.get('cursor') ?? undefined,
      },
      signal,
    });
    return { rows: page.clients, nextCursor: page.nextCursor || undefined };
  }, query.toString());
  return (
    <Page title={t.clients.title}>
      <p class="muted">{t.clients.intro}</p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ q: q.trim() || undefined });
        }}
      >
        <Field label={t.clients.search} hint={t.clients.searchHint}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="search"
              maxLength={128}
              aria-describedby={describedBy}
              value={q}
              onInput={(e) => setQ(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={t.clients.aggregator}>
          {({ id }) => (
            <select
              id={id}
              value={query.get('aggregator') ?? ''}
              onChange={(e) => setQuery({ aggregator: e.currentTarget.value || undefined })}
            >
              <option value="">{t.clients.allAggregators}</option>
              {(aggregators.data?.aggregators ?? []).map((aggregator) => (
                <option value={aggregator.id} key={aggregator.id}>
                  {aggregator.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.clients.status}>
          {({ id }) => (
            <select
              id={id}
              value={query.get('status') ?? ''}
              onChange={(e) => setQuery({ status: e.currentTarget.value || undefined })}
            >
              <option value="">{t.clients.anyStatus}</option>
              <option value="active">{t.clients.statuses.active}</option>
              <option value="suspended">{t.clients.statuses.suspended}</option>
            </select>
          )}
        </Field>
        <button type="submit" class="button button-primary">
          {t.search}
        </button>
      </form>
      <Table<ClientRow>
        caption={t.clients.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.clients.empty}
        columns={[
          {
            header: t.clients.name,
            cell: (row) => (
              <span>
                <a href={href(`/clients/${row.id}`)}>{row.name}</a>
                <br />
                <span class="muted">{row.externalId}</span>
              </span>
            ),
          },
          { header: t.clients.aggregator, cell: (row) => row.aggregatorName },
          {
            header: t.clients.status,
            cell: (row) => <StatusBadge status={row.status} activatedAt={row.activatedAt} />,
          },
          {
            header: t.clients.environments,
            cell: (row) => (
              <span>
                {t.clients.production}: <code>{row.production.tenantId}</code>{' '}
                <StatusBadge status={row.production.status} />
                <br />
                {t.clients.sandbox}: <code>{row.sandbox.tenantId}</code> <StatusBadge status={row.sandbox.status} />
              </span>
            ),
          },
          { header: t.clients.created, cell: (row) => dateTime(row.createdAt), orders: true },
        ]}
      />
    </Page>
  );
}

type Action = 'suspend' | 'resume' | 'revoke';
const ACTIONS: Record<
  Action,
  { operation: 'suspendClient' | 'resumeClient' | 'revokeClientCredentials'; path: string }
> = {
  suspend: { operation: 'suspendClient', path: 'suspend' },
  resume: { operation: 'resumeClient', path: 'resume' },
  revoke: { operation: 'revokeClientCredentials', path: 'revoke-credentials' },
};

/** One client: its environments, the platform's three separate actions, and its activation history. */
export function ClientScreen(props: { id: string }) {
  const [acting, setActing] = useState<Action | null>(null);
  const loaded = useLoad(
    (signal) => call('adminGetClient', 'GET', `/api/v1/admin/clients/${encodeURIComponent(props.id)}`, { signal }),
    props.id,
  );
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const { client, history } = loaded.data;
  const held = client.suspendedByPlatform || client.credentialsRevokedByPlatform;
  return (
    <Page title={client.name} actions={<StatusBadge status={client.status} activatedAt={client.activatedAt} />}>
      <p class="muted">
        {client.legalName} · {client.externalId} · {client.currency} · {client.jurisdiction}
      </p>
      <div class="form-actions">
        {!client.suspendedByPlatform && (
          <button type="button" class="button button-danger" onClick={() => setActing('suspend')}>
            {t.clients.suspend}
          </button>
        )}
        {!client.credentialsRevokedByPlatform && (
          <button type="button" class="button button-danger" onClick={() => setActing('revoke')}>
            {t.clients.revoke}
          </button>
        )}
        {held && (
          <button type="button" class="button button-primary" onClick={() => setActing('resume')}>
            {t.clients.resume}
          </button>
        )}
      </div>
      <div class="cards">
        <EnvironmentPanel title={t.clients.production} environment={client.production} />
        <EnvironmentPanel title={t.clients.sandbox} environment={client.sandbox} />
      </div>
      <section class="panel" aria-labelledby="client-history">
        <h2 id="client-history">{t.clients.history}</h2>
        {history.length === 0 ? (
          <Empty>{t.clients.noHistory}</Empty>
        ) : (
          <ol class="timeline">
            {history.map((entry, index) => (
              <li key={index}>
                {dateTime(entry.at)}: <code>{entry.action}</code> · {t.audit.outcomes[entry.outcome] ?? entry.outcome} ·{' '}
                {t.audit.actors[entry.actor.type] ?? entry.actor.type} {entry.actor.id ?? ''}
                {typeof entry.details.reason === 'string' ? ` · ${entry.details.reason}` : ''}
              </li>
            ))}
          </ol>
        )}
      </section>
      {acting && (
        <Confirm
          title={acting === 'suspend' ? t.clients.suspend : acting === 'resume' ? t.clients.resume : t.clients.revoke}
          text={
            acting === 'suspend'
              ? t.clients.suspendText
              : acting === 'resume'
                ? t.clients.resumeText
                : t.clients.revokeText
          }
          action={acting === 'suspend' ? t.clients.suspend : acting === 'resume' ? t.clients.resume : t.clients.revoke}
          danger={acting !== 'resume'}
          onConfirm={(reason) =>
            call(ACTIONS[acting].operation, 'POST', `/api/v1/admin/clients/${client.id}/${ACTIONS[acting].path}`, {
              body: reason ? { reason } : {},
            })
          }
          onClose={(done) => {
            setActing(null);
            if (done) loaded.reload();
          }}
        />
      )}
    </Page>
  );
}

function EnvironmentPanel(props: { title: string; environment: Environment }) {
  const id = `environment-${props.environment.tenantId}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>
        {props.title} <StatusBadge status={props.environment.status} />
      </h2>
      <dl class="facts">
        <dt>{t.tenant.label}</dt>
        <dd>
          <a href={href('/settings', { tenant: props.environment.tenantId })}>
            <code>{props.environment.tenantId}</code>
          </a>
        </dd>
        <dt>{t.settings.walletUrl}</dt>
        <dd>
          <code>{props.environment.walletUrl}</code>
        </dd>
        <dt>{t.settings.integrationKey}</dt>
        <dd>{props.environment.integrationKey ? <code>{props.environment.integrationKey.keyId}</code> : '—'}</dd>
      </dl>
    </section>
  );
}
