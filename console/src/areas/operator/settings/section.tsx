import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { call, type ApiRequest } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { messageOf } from '../../../ui/ui.tsx';

export type Update = ApiRequest<'updateTenant'>;

/** One section of settings saved on its own, with the API's refusals next to the fields they name. */
export function useSave(tenantId: string | undefined, saved: () => void) {
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState(false);
  async function save(body: Update) {
    setError(null);
    setDone(false);
    try {
      await call('updateTenant', 'PUT', '/api/v1/admin/tenant', { query: { tenantId }, body });
      setDone(true);
      saved();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  return { error, done, save };
}

/** A settings panel, named by its heading. */
export function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** "Saved.", or the refusal that names no field of the section. */
export function Saved(props: { general: Error | null; done: boolean }) {
  return (
    <span role="status" class={props.general ? 'form-error' : 'muted'}>
      {props.general ? messageOf(props.general) : props.done ? t.saved : ''}
    </span>
  );
}
