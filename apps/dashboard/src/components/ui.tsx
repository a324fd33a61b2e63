import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api.ts';

/** A labelled control with its errors beneath it, tied together for screen readers. */
export function Field(props: {
  label: string;
  errors?: string[];
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => JSX.Element;
}) {
  const id = useId();
  const errors = props.errors ?? [];
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = errors.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${errors.length ? ' field--invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.children({ id, describedBy, invalid: errors.length > 0 })}
      {errorId && (
        <ul class="field__errors" id={errorId}>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {props.hint && (
        <p class="field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

/** A labelled one-line input with its hint and errors: the common case of Field. */
export function TextField(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  errors?: string[];
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'url';
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
  placeholder?: string;
}) {
  const { label, errors, hint, onValue, ...input } = props;
  return (
    <Field label={label} {...(errors ? { errors } : {})} {...(hint ? { hint } : {})}>
      {(f) => (
        <input
          id={f.id}
          type="text"
          {...input}
          aria-describedby={f.describedBy}
          aria-invalid={f.invalid}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

export function Spinner(props: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{props.label ?? 'Loading…'}</span>
    </div>
  );
}

export function ErrorNotice(props: { error: ApiError | string; onRetry?: () => void }) {
  const message = typeof props.error === 'string' ? props.error : props.error.message;
  return (
    <div class="notice notice--error" role="alert">
      <span>{message}</span>
      {props.onRetry && (
        <button type="button" class="button button--small" onClick={props.onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty__title">{props.title}</p>
      {props.children && <div class="empty__body">{props.children}</div>}
    </div>
  );
}

export function PageHeader(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1>{props.title}</h1>
      {props.children && <div class="page-header__actions">{props.children}</div>}
    </div>
  );
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge badge--${props.status}`}>{props.status}</span>;
}

/** A processing extraction's pages finished of pages in all; nothing until its pages are known. */
export function PageProgress(props: { progress?: { pagesDone: number; pagesTotal: number } }) {
  const p = props.progress;
  if (!p || p.pagesTotal === 0) return null;
  return (
    <span class="page-progress" data-testid="progress">
      <progress value={p.pagesDone} max={p.pagesTotal} />{' '}
      <span class="muted">
        {p.pagesDone} / {p.pagesTotal} pages
      </span>
    </span>
  );
}

/** Copies text; falls back to selecting it where the clipboard API is unavailable (plain http). */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
    } catch {
      const area = document.createElement('textarea');
      area.value = props.text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" class="button" onClick={() => void copy()}>
      {copied ? 'Copied' : (props.label ?? 'Copy')}
      <span class="visually-hidden" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
}

/**
 * A secret shown only once (an API key, a signing secret): read-only, selected on focus, with a
 * copy button. Rows only matter where `field-sizing` is unsupported; elsewhere it grows to fit.
 */
export function SecretValue(props: { value: string; label: string; testId: string }) {
  return (
    <div class="secret">
      <textarea
        class="secret__value"
        readOnly
        rows={2}
        spellcheck={false}
        value={props.value}
        aria-label={props.label}
        data-testid={props.testId}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton text={props.value} />
    </div>
  );
}

/** A modal confirmation (the native <dialog>: focus trapped, Escape cancels). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  error?: ApiError | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onCancel={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      <div class="dialog__body">{props.children}</div>
      {props.error && <ErrorNotice error={props.error} />}
      <div class="dialog__actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          class="button button--danger"
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** JSON shown as text (never as markup), scrollable when long. */
export function JsonBlock(props: { value: unknown; label: string }) {
  return (
    <pre class="code" tabIndex={0} aria-label={props.label}>
      {props.value === undefined ? '—' : JSON.stringify(props.value, null, 2)}
    </pre>
  );
}
