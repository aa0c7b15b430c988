import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { session } from '../../session.ts';
import { useValue, Value } from '../../store.ts';
import { Empty, Field } from '../../ui/ui.tsx';

/**
 * The tenant a platform administrator last worked on, for the life of the page (in memory, like the session): the
 * next tenant screen opens on it, so moving from one screen to another keeps the tenant.
 */
const lastTenant = new Value('');

/**
 * The tenant an operator screen works on: an operator's own, or the one a platform administrator picked (kept in
 * the address as `?tenant=`, so a link opens the same tenant, and kept while the console is open, so the next
 * screen opens on it). Children get the API's `tenantId` parameter: undefined for an operator (the API scopes it),
 * the id for a platform administrator.
 */
export function TenantScope(props: { children: (tenantId: string | undefined) => ComponentChildren }) {
  const staff = useValue(session)!.staff;
  const { query } = useValue(place);
  const remembered = useValue(lastTenant);
  const picked = query.get('tenant') ?? remembered;
  const [typed, setTyped] = useState(picked);
  useEffect(() => {
    if (picked) lastTenant.set(picked);
  }, [picked]);
  if (staff.role === 'operator') return <>{props.children(undefined)}</>;
  return (
    <>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ tenant: typed.trim() || undefined }, { push: true });
        }}
      >
        <Field label={t.tenant.label} hint={t.tenant.hint}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              maxLength={64}
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="button">
          {t.tenant.open}
        </button>
      </form>
      {picked ? props.children(picked) : <Empty>{t.tenant.choose}</Empty>}
    </>
  );
}
