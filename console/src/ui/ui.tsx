import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { t } from '../messages.ts';

/** The heading of a screen, with its actions; the document title follows it (and the language, after every render). */
export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · ${t.product}`;
  });
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <p class="state" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? t.loading}
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="state state-empty">{props.children}</p>;
}

/** What went wrong, in the API's words, and what to do: try again. */
export function Failure(props: { error: Error; retry?: () => void }) {
  return (
    <div class="state state-failed" role="alert">
      <p>{messageOf(props.error)}</p>
      {props.retry && (
        <button type="button" class="button" onClick={props.retry}>
          {t.tryAgain}
        </button>
      )}
    </div>
  );
}

/**
 * The API's refusal of a form, split: its message beside the field it names (`details.field`: the field itself or a
 * part of it, `walletOrigins.0`), or, when it names none of the form's fields, one message above the form.
 */
export function refusal(error: Error | null, fields: readonly string[]) {
  const named =
    error instanceof ApiError
      ? fields.find((name) => error.field === name || error.field?.startsWith(`${name}.`))
      : undefined;
  return {
    field: (name: string) => (error && named === name ? besideField(error.message) : undefined),
    general: error && !named ? error : null,
  };
}

/** A refusal shown beside its field needs not name it: 'Field "reason" needs at least 3 characters.' → 'Needs …'. */
function besideField(message: string): string {
  const rest = message.replace(/^Field "[^"]*" /, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** A refusal that belongs to no field, above the form. */
export function FormError(props: { error: Error | null }) {
  if (!props.error) return null;
  return (
    <p class="form-error" role="alert">
      {messageOf(props.error)}
    </p>
  );
}

/** A refusal the page itself makes before asking the API (a choice missing): its message is shown as it is. */
export class Problem extends Error {}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message || t.failedCode(error.code);
  if (error instanceof Problem) return error.message;
  return t.unexpected;
}

/** A labelled field with its hint and, from the API's refusal, its error next to it. */
export function Field(props: {
  label: string;
  hint?: string;
  error?: string | undefined;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => JSX.Element;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${props.error ? ' field-invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.children({ id, describedBy, invalid: Boolean(props.error) })}
      {props.hint && (
        <p class="field-hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A form's two buttons: cancel, and the action it submits. */
export function FormActions(props: { onCancel: () => void; submit: string; danger?: boolean; disabled?: boolean }) {
  return (
    <div class="form-actions">
      <button type="button" class="button" onClick={props.onCancel}>
        {t.cancel}
      </button>
      <button
        type="submit"
        class={`button ${props.danger ? 'button-danger' : 'button-primary'}`}
        disabled={props.disabled}
      >
        {props.submit}
      </button>
    </div>
  );
}

/** A modal dialog (the browser's own: focus kept inside, Escape closes, focus returns to what opened it). */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/**
 * A secret the API gives once (a key, a wallet secret): shown with a copy button and the warning that it will not
 * be shown again; it lives in this component only and is gone when the dialog closes.
 */
export function OnceSecret(props: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div class="secret">
      <p class="secret-warning" role="note">
        {t.secretShownOnce}
      </p>
      <label for={id}>{props.label}</label>
      <div class="secret-row">
        <input id={id} class="secret-value" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          class="button"
          onClick={() =>
            void navigator.clipboard?.writeText(props.value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t.copied : t.copy}
        </button>
      </div>
      <p class="visually-hidden" role="status">
        {copied ? t.copied : ''}
      </p>
    </div>
  );
}

/** A status as a labelled badge; its colour repeats the word, never replaces it. */
export function Badge(props: { tone?: 'good' | 'bad' | 'warn' | 'neutral'; children: ComponentChildren }) {
  return <span class={`badge badge-${props.tone ?? 'neutral'}`}>{props.children}</span>;
}

/**
 * A table in a box that scrolls sideways when it is wider than the screen (many columns, longer words in Portuguese):
 * focusable and named, so that a keyboard can scroll it as well as a finger.
 */
export function ScrollingTable(props: { label: string; class?: string; children: ComponentChildren }) {
  return (
    <div class={props.class ?? 'table-wrap'} tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
