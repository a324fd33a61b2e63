import { useState } from 'preact/hooks';
import { api, errorsFor } from '../api.ts';
import { ErrorNotice, PageHeader, TextField } from '../components/ui.tsx';
import { useSubmit, useTitle } from '../hooks.ts';
import { useSession } from '../session.tsx';

function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<number>();
  const { busy, error, fields, onSubmit } = useSubmit();

  const submit = onSubmit(async () => {
    setDone(undefined);
    const result = await api.put<{ endedSessions: number }>('/password', {
      currentPassword: current,
      newPassword: next,
    });
    setCurrent('');
    setNext('');
    setDone(result.endedSessions);
  });
  return (
    <form class="card" onSubmit={submit} aria-label="Change password">
      <h2 class="card__title">Change password</h2>
      {error && !fields.length && <ErrorNotice error={error} />}
      {done !== undefined && (
        <div class="notice notice--ok" role="status">
          Password changed. {done === 1 ? 'One other session was' : `${done} other sessions were`}{' '}
          signed out.
        </div>
      )}
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onValue={setCurrent}
        errors={errorsFor(fields, 'currentPassword')}
      />
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        value={next}
        onValue={setNext}
        errors={errorsFor(fields, 'newPassword')}
        hint="Your other sessions are signed out when it changes"
      />
      <button type="submit" class="button button--primary" disabled={busy}>
        {busy ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}

function SignOutEverywhere() {
  const { signOut } = useSession();
  const { busy, error, run } = useSubmit();
  const signOutEverywhere = () =>
    run(async () => {
      await api.delete('/sessions');
      await signOut();
    });
  return (
    <section class="card" aria-label="Sign out everywhere">
      <h2 class="card__title">Sign out everywhere</h2>
      {error && <ErrorNotice error={error} />}
      <p>Ends every session of yours, on every device and browser, this one included.</p>
      <button type="button" class="button" disabled={busy} onClick={() => void signOutEverywhere()}>
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
