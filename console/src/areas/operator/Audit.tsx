import { useState } from 'preact/hooks';
import { call, callText, type ApiResponse } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { useValue } from '../../store.ts';
import { download } from '../../ui/download.ts';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Field, FormError, Page } from '../../ui/ui.tsx';

type Entry = ApiResponse<'listAuditEntries'>['entries'][number];
const FILTERS = ['actorId', 'action', 'targetId', 'from', 'to'] as const;
type Filter = Record<(typeof FILTERS)[number], string>;

/** A local date-time input's value as an instant, or undefined. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The audit log: filtered by actor, action and object, paged on the server, exported as CSV. */
export function Audit() {
  const { query } = useValue(place);
  const filter = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as Filter;
  const [form, setForm] = useState(filter);
  const [error, setError] = useState<Error | null>(null);
  const apiQuery = {
    actorId: filter.actorId || undefined,
    action: filter.action || undefined,
    targetId: filter.targetId || undefined,
    from: instant(filter.from),
    to: instant(filter.to),
    tenantId: query.get('tenant') ?? undefined,
    order: listOrder(query),
  };
  const loaded = useLoad(async (signal) => {
    const page = await call('listAuditEntries', 'GET', '/api/v1/admin/audit', {
      query: { ...apiQuery, cursor: query.get('cursor') ?? undefined },
      signal,
    });
    return { rows: page.entries, nextCursor: page.nextCursor || undefined };
  }, query.toString());
  async function exportCsv() {
    setError(null);
    try {
      download('audit-log.csv', await callText('/api/v1/admin/audit', { ...apiQuery, format: 'csv' }));
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const input = (name: keyof Filter, label: string, type: 'text' | 'datetime-local' = 'text', hint?: string) => (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => {
        const common = {
          id,
          'aria-describedby': describedBy,
          value: form[name],
          onInput: (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [name]: e.currentTarget.value }),
        };
        return type === 'text' ? (
          <input {...common} type="text" maxLength={128} />
        ) : (
          <input {...common} type="datetime-local" />
        );
      }}
    </Field>
  );
  return (
    <Page
      title={t.audit.title}
      actions={
        <button type="button" class="button" onClick={() => void exportCsv()}>
          {t.audit.exportCsv}
        </button>
      }
    >
      <p class="muted">{t.audit.intro}</p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(Object.fromEntries(FILTERS.map((name) => [name, form[name].trim() || undefined])));
        }}
      >
        {input('actorId', t.audit.actor)}
        {input('action', t.audit.action, 'text', t.audit.actionHint)}
        {input('targetId', t.audit.target)}
        {input('from', t.audit.from, 'datetime-local')}
        {input('to', t.audit.to, 'datetime-local')}
        <button type="submit" class="button button-primary">
          {t.apply}
        </button>
      </form>
      <FormError error={error} />
      <Table<Entry>
        caption={t.audit.caption}
        loaded={loaded}
        rowKey={(entry) => entry.id}
        empty={t.audit.empty}
        columns={[
          { header: t.audit.when, cell: (entry) => dateTime(entry.occurredAt), orders: true },
          {
            header: t.audit.who,
            cell: (entry) => `${t.audit.actors[entry.actor.type] ?? entry.actor.type} ${entry.actor.id ?? ''}`,
          },
          { header: t.audit.what, cell: (entry) => <code>{entry.action}</code> },
          {
            header: t.audit.object,
            cell: (entry) => (entry.target ? `${entry.target.type} ${entry.target.id ?? ''}` : ''),
          },
          {
            header: t.audit.outcome,
            cell: (entry) => (
              <Badge tone={entry.outcome === 'success' ? 'good' : 'bad'}>{t.audit.outcomes[entry.outcome]}</Badge>
            ),
          },
          {
            header: t.audit.details,
            cell: (entry) => <code class="details">{JSON.stringify(entry.details)}</code>,
          },
        ]}
      />
    </Page>
  );
}
