import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import type { Role } from '../../session.ts';
import { useValue } from '../../store.ts';
import { Confirm } from '../../ui/Confirm.tsx';
import { useLoad } from '../../ui/load.ts';
import { listOrder, Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormActions, FormError, Page, refusal } from '../../ui/ui.tsx';

type Account = ApiResponse<'listStaff'>['staff'][number];
type Action = 'reset-totp' | 'disable' | 'enable';
const ROLES: Role[] = ['platform_admin', 'trader', 'operator'];
const OPERATIONS = { 'reset-totp': 'resetStaffTotp', disable: 'disableStaff', enable: 'enableStaff' } as const;

/** Staff accounts: created with a role (and a tenant for operators), their authenticator reset, disabled. */
export function Staff() {
  const { query } = useValue(place);
  const [creating, setCreating] = useState(false);
  const [acting, setActing] = useState<{ account: Account; action: Action } | null>(null);
  const loaded = useLoad(async (signal) => {
    const page = await call('listStaff', 'GET', '/api/v1/admin/staff', {
      query: {
        role: query.get('role') ?? undefined,
        order: listOrder(query),
        cursor: query.get('cursor') ?? undefined,
      },
      signal,
    });
    return { rows: page.staff, nextCursor: page.nextCursor || undefined };
  }, query.toString());
  const texts = (account: Account) => ({
    'reset-totp': { title: t.staff.resetTotp, text: t.staff.resetText(account.email) },
    disable: { title: t.staff.disable, text: t.staff.disableText(account.email) },
    enable: { title: t.staff.enable, text: t.staff.enableText(account.email) },
  });
  return (
    <Page
      title={t.staff.title}
      actions={
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          {t.staff.create}
        </button>
      }
    >
      <p class="muted">{t.staff.intro}</p>
      <div class="filters">
        <Field label={t.staff.role}>
          {({ id }) => (
            <select
              id={id}
              value={query.get('role') ?? ''}
              onChange={(e) => setQuery({ role: e.currentTarget.value || undefined })}
            >
              <option value="">{t.staff.anyRole}</option>
              {ROLES.map((role) => (
                <option value={role} key={role}>
                  {t.roles[role]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Table<Account>
        caption={t.staff.caption}
        loaded={loaded}
        rowKey={(row) => row.id}
        empty={t.staff.empty}
        columns={[
          {
            header: t.staff.email,
            cell: (row) => (
              <span>
                {row.email}
                {row.tenantId && (
                  <>
                    <br />
                    <code class="muted">{row.tenantId}</code>
                  </>
                )}
              </span>
            ),
          },
          { header: t.staff.role, cell: (row) => t.roles[row.role] },
          {
            header: t.staff.status,
            cell: (row) => (
              <Badge tone={row.status === 'active' ? 'good' : 'bad'}>{t.staff.statuses[row.status]}</Badge>
            ),
          },
          { header: t.staff.enrolled, cell: (row) => (row.enrolled ? t.staff.enrolledYes : t.staff.enrolledNo) },
          { header: t.staff.created, cell: (row) => dateTime(row.createdAt), orders: true },
          {
            header: t.staff.lastLogin,
            cell: (row) => (row.lastLoginAt ? dateTime(row.lastLoginAt) : t.aggregator.never),
          },
          {
            header: '',
            cell: (row) => (
              <span class="row-actions">
                <button
                  type="button"
                  class="button button-small"
                  aria-label={`${t.staff.resetTotp}: ${row.email}`}
                  onClick={() => setActing({ account: row, action: 'reset-totp' })}
                >
                  {t.staff.resetTotp}
                </button>
                <button
                  type="button"
                  class={`button button-small ${row.status === 'active' ? 'button-danger' : ''}`}
                  aria-label={`${row.status === 'active' ? t.staff.disable : t.staff.enable}: ${row.email}`}
                  onClick={() => setActing({ account: row, action: row.status === 'active' ? 'disable' : 'enable' })}
                >
                  {row.status === 'active' ? t.staff.disable : t.staff.enable}
                </button>
              </span>
            ),
          },
        ]}
      />
      {creating && (
        <CreateAccount
          onClose={(made) => {
            setCreating(false);
            if (made) loaded.reload();
          }}
        />
      )}
      {acting && (
        <Confirm
          {...texts(acting.account)[acting.action]}
          action={texts(acting.account)[acting.action].title}
          danger={acting.action !== 'enable'}
          onConfirm={(reason) =>
            call(OPERATIONS[acting.action], 'POST', `/api/v1/admin/staff/${acting.account.id}/${acting.action}`, {
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

function CreateAccount(props: { onClose: (made: boolean) => void }) {
  const [form, setForm] = useState({ email: '', password: '', role: 'trader' as Role, tenantId: '' });
  const [error, setError] = useState<Error | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      await call('createStaff', 'POST', '/api/v1/admin/staff', {
        body: {
          email: form.email.trim(),
          password: form.password,
          role: form.role,
          ...(form.role === 'operator' ? { tenantId: form.tenantId.trim() } : {}),
        },
      });
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['email', 'password', 'role', 'tenantId']);
  const fieldError = refused.field;
  return (
    <Dialog title={t.staff.create} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <Field label={t.staff.email} error={fieldError('email')}>
          {({ id }) => (
            <input
              id={id}
              type="email"
              required
              maxLength={254}
              value={form.email}
              onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.staff.password} hint={t.staff.passwordHint} error={fieldError('password')}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              required
              minLength={12}
              maxLength={256}
              aria-describedby={describedBy}
              value={form.password}
              onInput={(e) => setForm({ ...form, password: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.staff.role} error={fieldError('role')}>
          {({ id }) => (
            <select
              id={id}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.currentTarget.value as Role })}
            >
              {ROLES.map((role) => (
                <option value={role} key={role}>
                  {t.roles[role]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {form.role === 'operator' && (
          <Field label={t.staff.tenant} hint={t.staff.tenantHint} error={fieldError('tenantId')}>
            {({ id, describedBy }) => (
              <input
                id={id}
                required
                maxLength={64}
                aria-describedby={describedBy}
                value={form.tenantId}
                onInput={(e) => setForm({ ...form, tenantId: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        <FormActions onCancel={() => props.onClose(false)} submit={t.staff.create} />
      </form>
    </Dialog>
  );
}
