import { useState } from 'preact/hooks';
import { api, errorsFor } from '../api.ts';
import { ErrorNotice, TextField } from '../components/ui.tsx';
import { useSubmit, useTitle } from '../hooks.ts';
import type { SessionView } from '../types.ts';

export function SignInPage(props: {
  notice?: string | undefined;
  onSignedIn: (v: SessionView) => void;
}) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, fields, onSubmit } = useSubmit();
  const submit = onSubmit(async () =>
    props.onSignedIn(await api.post<SessionView>('/session', { email, password })),
  );

  return (
    <main class="signin">
      <form class="card signin__card" onSubmit={submit} noValidate>
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
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          errors={errorsFor(fields, 'email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
          errors={errorsFor(fields, 'password')}
        />
        <button type="submit" class="button button--primary button--block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
