import { useState } from 'preact/hooks';
import type { ApiError } from '../api.ts';
import { api, errorsFor } from '../api.ts';
import { ErrorNotice, Field, PageHeader } from '../components/ui.tsx';
import { useTitle } from '../hooks.ts';
import { useSession } from '../session.tsx';

function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [done, setDone] = useState<number>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const result = await api.put<{ endedSessions: number }>('/password', {
        currentPassword: current,
        newPassword: next,
      });
      setCurrent('');
      setNext('');
      setDone(result.endedSessions);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const fields = error?.fields ?? [];
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-label="Change password">
      <h2 class="card__title">Change password</h2>
      {error && !fields.length && <ErrorNotice error={error} />}
      {done !== undefined && (
        <div class="notice notice--ok" role="status">
          Password changed. {done === 1 ? 'One other session was' : `${done} other sessions were`}{' '}
          signed out.
        </div>
      )}
      <Field label="Current password" errors={errorsFor(fields, 'currentPassword')}>
        {(f) => (
          <input
            id={f.id}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            aria-describedby={f.describedBy}
            aria-invalid={f.invalid}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="New password"
        errors={errorsFor(fields, 'newPassword')}
        hint="Your other sessions are signed out when it changes"
      >
        {(f) => (
          <input
            id={f.id}
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            value={next}
            aria-describedby={f.describedBy}
            aria-invalid={f.invalid}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" class="button button--primary" disabled={busy}>
        {busy ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}

function SignOutEverywhere() {
  const { signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.delete('/sessions');
      await signOut();
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-label="Sign out everywhere">
      <h2 class="card__title">Sign out everywhere</h2>
      {error && <ErrorNotice error={error} />}
      <p>Ends every session of yours, on every device and browser, this one included.</p>
      <button type="button" class="button" disabled={busy} onClick={() => void run()}>
        {busy ? 'Signing out…' : 'Sign out everywhere'}
      </button>
    </section>
  );
}

export function AccountPage() {
  useTitle('Account');
  const { user } = useSession();
  return (
    <>
      <PageHeader title="Account" />
      <p>
        Signed in as <strong>{user.email}</strong> ({user.account}).
      </p>
      <ChangePasswordForm />
      <SignOutEverywhere />
    </>
  );
}
