import { useState } from 'preact/hooks';
import type { ApiError } from '../api.ts';
import { api, errorsFor } from '../api.ts';
import { ErrorNotice, Field } from '../components/ui.tsx';
import { useTitle } from '../hooks.ts';
import type { SessionView } from '../types.ts';

export function SignInPage(props: {
  notice?: string | undefined;
  onSignedIn: (v: SessionView) => void;
}) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onSignedIn(await api.post<SessionView>('/session', { email, password }));
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
    }
  };
  const fields = error?.fields ?? [];

  return (
    <main class="signin">
      <form class="card signin__card" onSubmit={(e) => void submit(e)} noValidate>
        <div class="brand brand--large">
          <span class="brand__mark" aria-hidden="true">
            {'{ }'}
          </span>
          Extraction
        </div>
        <h1>Sign in to your account</h1>
        {props.notice && !error && (
          <div class="notice" role="status">
            {props.notice}
          </div>
        )}
        {error && !fields.length && <ErrorNotice error={error} />}
        <Field label="Email" errors={errorsFor(fields, 'email')}>
          {(f) => (
            <input
              id={f.id}
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              aria-describedby={f.describedBy}
              aria-invalid={f.invalid}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Password" errors={errorsFor(fields, 'password')}>
          {(f) => (
            <input
              id={f.id}
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              aria-describedby={f.describedBy}
              aria-invalid={f.invalid}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="button button--primary button--block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
