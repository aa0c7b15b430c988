import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { session } from '../../session.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormActions, FormError, OnceSecret, Page, refusal } from '../../ui/ui.tsx';

type Producer = ApiResponse<'listFeedProducers'>['producers'][number];
const TONES = { up: 'good', recovering: 'warn', down: 'bad' } as const;

/**
 * The odds feed's producers (docs/feed.md): whether each one speaks, when it last did, and the markets it prices,
 * holds (suspended by the silence rule) or has lost to a trader. Platform administrators register new ones here.
 */
export function Producers() {
  const role = useValue(session)?.staff.role;
  const [registering, setRegistering] = useState(false);
  const loaded = useLoad(async (signal) => {
    const { producers } = await call('listFeedProducers', 'GET', '/api/v1/admin/feed/producers', { signal });
    return { rows: producers };
  }, 'producers');
  return (
    <Page
      title={t.feed.title}
      actions={
        role === 'platform_admin' && (
          <button type="button" class="button button-primary" onClick={() => setRegistering(true)}>
            {t.feed.register}
          </button>
        )
      }
    >
      <p class="muted">{t.feed.intro}</p>
      <Table<Producer>
        caption={t.feed.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.feed.empty}
        columns={[
          {
            header: t.feed.producer,
            cell: (row) => (
              <span>
                {row.name}
                <br />
                <span class="muted">
                  {row.id}
                  {row.trusted && ` · ${t.feed.trusted}`}
                </span>
              </span>
            ),
          },
          { header: t.feed.state, cell: (row) => <Badge tone={TONES[row.state]}>{t.feed.states[row.state]}</Badge> },
          { header: t.feed.lastMessage, cell: (row) => dateTime(row.lastMessageAt) || t.feed.never },
          { header: t.feed.fed, numeric: true, cell: (row) => count(row.markets.fed) },
          { header: t.feed.held, numeric: true, cell: (row) => count(row.markets.held) },
          { header: t.feed.takenOver, numeric: true, cell: (row) => count(row.markets.takenOver) },
          { header: t.feed.stale, numeric: true, cell: (row) => count(row.staleMessages) },
          { header: t.feed.gaps, numeric: true, cell: (row) => count(row.gaps) },
        ]}
      />
      {registering && (
        <Register
          onClose={(done) => {
            setRegistering(false);
            if (done) loaded.reload();
          }}
        />
      )}
    </Page>
  );
}

/** A new producer: its id, name and trust; its key once. */
function Register(props: { onClose: (done: boolean) => void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [trusted, setTrusted] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const problems = refusal(error, ['id', 'name']);
  async function submit(submitted: Event) {
    submitted.preventDefault();
    setError(null);
    try {
      const body = { id, name, trusted };
      setKey((await call('registerFeedProducer', 'POST', '/api/v1/admin/feed/producers', { body })).key);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  if (key) {
    return (
      <Dialog title={t.feed.registered(name)} onClose={() => props.onClose(true)}>
        <OnceSecret label={t.feed.key} value={key} />
        <div class="form-actions">
          <button type="button" class="button button-primary" onClick={() => props.onClose(true)}>
            {t.close}
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title={t.feed.register} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(submitted) => void submit(submitted)}>
        <Field label={t.feed.id} hint={t.feed.idHint} error={problems.field('id')}>
          {({ id: fieldId, describedBy, invalid }) => (
            <input
              id={fieldId}
              required
              pattern="[a-z0-9][a-z0-9\-]{0,31}"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={id}
              onInput={(e) => setId(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={t.feed.name} error={problems.field('name')}>
          {({ id: fieldId, invalid }) => (
            <input
              id={fieldId}
              required
              maxLength={100}
              aria-invalid={invalid}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={trusted} onChange={(e) => setTrusted(e.currentTarget.checked)} />{' '}
          {t.feed.trustedHint}
        </label>
        <FormError error={problems.general} />
        <FormActions onCancel={() => props.onClose(false)} submit={t.feed.register} />
      </form>
    </Dialog>
  );
}
