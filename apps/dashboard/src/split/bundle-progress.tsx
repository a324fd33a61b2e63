import { StatusBadge } from '../components/ui.tsx';
import { shortId } from '../format.ts';
import { useLoad } from '../hooks.ts';
import type { ExtractionListRecord, ExtractionRecord, SplitRequest } from '../types.ts';
import { childrenOf } from './children.ts';
import { pageRange } from './documents.ts';

/**
 * A bundle still at work (docs/split.md): its documents are in its result only once every one
 * is final, so until then this lists the children the split made, each with its pages and
 * status, read from the list with every poll of the bundle.
 */
export function BundleProgress(props: { record: ExtractionRecord; split: SplitRequest }) {
  const { record } = props;
  const children = useLoad(() => childrenOf(record.id), [record]);
  const list = [...(children.data ?? [])].sort(
    (a, b) => (a.pages?.from ?? 0) - (b.pages?.from ?? 0),
  );
  return (
    <section class="bundle section-gap" aria-labelledby="bundle-title" data-testid="bundle-pending">
      <h2 id="bundle-title" class="section-title">
        Documents in this bundle
      </h2>
      {list.length === 0 ? (
        <p class="muted">Splitting the bundle into documents…</p>
      ) : (
        <>
          <p class="muted">
            Split; {list.filter((c) => c.status === 'completed' || c.status === 'failed').length} of{' '}
            {list.length} documents extracted so far. The bundle’s pages, coloured by document, show
            once every one is final.
          </p>
          <ol class="bundle__legend" aria-label="Documents">
            {list.map((c) => (
              <li key={c.id} class="bundle-doc bundle-doc--plain">
                <span class="bundle-doc__what">
                  <strong class="bundle-doc__class">{classOf(c, props.split)}</strong>{' '}
                  {c.pages && pageRange(c.pages)}
                </span>
                <span class="bundle-doc__child">
                  <a href={`/dashboard/extractions/${c.id}`} class="mono">
                    extraction {shortId(c.id)}
                  </a>{' '}
                  <StatusBadge status={c.status} />
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** The class a child was read as: the one class naming its schema, else "document". */
function classOf(child: ExtractionListRecord, split: SplitRequest): string {
  const named = split.classes.filter((c) => c.schema_id && c.schema_id === child.input.schema_id);
  return named.length === 1 ? named[0]!.name : 'document';
}
