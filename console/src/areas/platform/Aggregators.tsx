import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { href, navigate } from '../../router.ts';
import { useLoad } from '../../ui/load.ts';
import { Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormActions, FormError, Page, refusal } from '../../ui/ui.tsx';

type Aggregator = ApiResponse<'listAggregators'>['aggregators'][number];

export function Aggregators() {
  const [creating, setCreating] = useState(false);
  const loaded = useLoad(
    async () => ({ rows: (await call('listAggregators', 'GET', '/api/v1/admin/aggregators')).aggregators }),
    'aggregators',
  );
  return (
    <Page
      title={t.aggregators.title}
      actions={
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          {t.aggregators.create}
        </button>
      }
    >
      <Table<Aggregator>
        caption={t.aggregators.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.aggregators.empty}
        columns={[
          { header: t.aggregators.name, cell: (row) => <a href={href(`/aggregators/${row.id}`)}>{row.name}</a> },
          { header: t.aggregators.status, cell: (row) => <AuthorizationBadge aggregator={row} /> },
          { header: t.aggregators.clients, numeric: true, cell: (row) => count(row.clientCount) },
          {
            header: t.aggregators.keys,
            numeric: true,
            cell: (row) => count(row.keys.filter((key) => !key.revokedAt).length),
          },
          { header: t.aggregators.created, cell: (row) => dateTime(row.createdAt) },
        ]}
      />
      {creating && <CreateAggregator onClose={() => setCreating(false)} />}
    </Page>
  );
}

export function AuthorizationBadge(props: { aggregator: Pick<Aggregator, 'authorization'> }) {
  const authorization = props.aggregator.authorization;
  if (!authorization) return <Badge tone="warn">{t.aggregators.noAuthorization}</Badge>;
  return authorization.enabled ? (
    <Badge tone="good">{t.aggregators.enabled}</Badge>
  ) : (
    <Badge tone="bad">{t.aggregators.disabled}</Badge>
  );
}

function CreateAggregator(props: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const { aggregator } = await call('createAggregator', 'POST', '/api/v1/admin/aggregators', {
        body: { name: name.trim() },
      });
      props.onClose();
      navigate(href(`/aggregators/${aggregator.id}`));
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  }
  const refused = refusal(error, ['name']);
  const fieldError = refused.field('name');
  return (
    <Dialog title={t.aggregators.create} onClose={props.onClose}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <Field label={t.aggregators.name} hint={t.aggregators.nameHint} error={fieldError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              minLength={2}
              maxLength={100}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormActions onCancel={props.onClose} submit={t.aggregators.create} disabled={busy} />
      </form>
    </Dialog>
  );
}
