import { Empty, PageHeader } from '../components/ui.tsx';
import { useTitle } from '../hooks.ts';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <Empty title="There is nothing at this address.">
        <a href="/dashboard/keys">Go to your API keys</a>
      </Empty>
    </>
  );
}
