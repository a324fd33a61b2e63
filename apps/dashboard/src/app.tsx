import type { ComponentType } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useRoute } from 'preact-iso';
import { api, ApiError, setCsrfToken, whenSignedOut } from './api.ts';
import { Layout } from './components/layout.tsx';
import { ErrorNotice, Spinner } from './components/ui.tsx';
import { ExtractionDetailPage } from './pages/extraction-detail.tsx';
import { ExtractionsPage } from './pages/extractions.tsx';
import { KeysPage } from './pages/keys.tsx';
import { NotFoundPage } from './pages/not-found.tsx';
import { ReviewQueuePage } from './pages/review-queue.tsx';
import { RunExtractionPage } from './pages/run-extraction.tsx';
import { SchemaEditorPage } from './pages/schema-editor.tsx';
import { SchemasPage } from './pages/schemas.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { UsagePage } from './pages/usage.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { AccountPage } from './pages/account.tsx';
import { SessionContext } from './session.tsx';
import type { SessionView, User } from './types.ts';

/**
 * A page about one record, started afresh for another. The router keeps a route's component
 * when only its `:id` changes, so without the key a link from a bundle to its document showed
 * the bundle's review (and the editor one schema's form) under the next record's id until the
 * new loads landed.
 */
function keyedById(Page: ComponentType): ComponentType {
  return function KeyedById() {
    const { params } = useRoute();
    return <Page key={params.id ?? ''} />;
  };
}
const ExtractionDetail = keyedById(ExtractionDetailPage);
const SchemaEditor = keyedById(SchemaEditorPage);

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; notice?: string }
  | { kind: 'failed'; error: ApiError }
  | { kind: 'signed-in'; user: User };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const adopt = useCallback((view: SessionView) => {
    setCsrfToken(view.csrfToken);
    setState({ kind: 'signed-in', user: view.user });
  }, []);

  const check = useCallback(() => {
    setState({ kind: 'loading' });
    api.get<SessionView>('/session').then(adopt, (err: unknown) => {
      if (err instanceof ApiError && err.status === 401) setState({ kind: 'signed-out' });
      else setState({ kind: 'failed', error: err as ApiError });
    });
  }, [adopt]);

  useEffect(() => {
    whenSignedOut(() =>
      setState({ kind: 'signed-out', notice: 'Your session ended. Please sign in again.' }),
    );
    check();
  }, [check]);

  const signOut = useCallback(async () => {
    await api.delete('/session').catch(() => undefined);
    setCsrfToken('');
    setState({ kind: 'signed-out', notice: 'You are signed out.' });
  }, []);

  if (state.kind === 'loading')
    return (
      <main class="centered">
        <Spinner />
      </main>
    );
  if (state.kind === 'failed')
    return (
      <main class="centered">
        <ErrorNotice error={state.error} onRetry={check} />
      </main>
    );
  if (state.kind === 'signed-out') return <SignInPage notice={state.notice} onSignedIn={adopt} />;

  return (
    <SessionContext.Provider value={{ user: state.user, signOut }}>
      <LocationProvider>
        <Layout>
          <Router>
            <Route path="/dashboard" component={KeysPage} />
            <Route path="/dashboard/keys" component={KeysPage} />
            <Route path="/dashboard/schemas" component={SchemasPage} />
            <Route path="/dashboard/schemas/new" component={SchemaEditorPage} />
            <Route path="/dashboard/schemas/:id" component={SchemaEditor} />
            <Route path="/dashboard/extractions" component={ExtractionsPage} />
            <Route path="/dashboard/reviews" component={ReviewQueuePage} />
            <Route path="/dashboard/extractions/new" component={RunExtractionPage} />
            <Route path="/dashboard/extractions/:id" component={ExtractionDetail} />
            <Route path="/dashboard/usage" component={UsagePage} />
            <Route path="/dashboard/webhooks" component={WebhooksPage} />
            <Route path="/dashboard/account" component={AccountPage} />
            <Route default component={NotFoundPage} />
          </Router>
        </Layout>
      </LocationProvider>
    </SessionContext.Provider>
  );
}
