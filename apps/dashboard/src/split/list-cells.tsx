import { shortId } from '../format.ts';
import { documentsOf, pageRange } from './documents.ts';
import type { ExtractionListRecord } from '../types.ts';

/**
 * A line under a list row's source saying where it sits in a split (docs/split.md): a bundle's
 * documents, or which pages of which bundle a document is. Plain text: a row's one link is the
 * extraction itself.
 */
export function BundleNote(props: { record: ExtractionListRecord }) {
  const r = props.record;
  if (r.input.split) {
    const documents = documentsOf(r.output);
    const extracted = documents?.filter((d) => d.extractionId).length ?? 0;
    return (
      <span class="list-note" data-testid="bundle-note">
        {documents
          ? `bundle of ${documents.length} ${documents.length === 1 ? 'document' : 'documents'}, ${extracted} extracted`
          : 'bundle, being split'}
      </span>
    );
  }
  if (r.parentId)
    return (
      <span class="list-note" data-testid="bundle-note">
        {r.pages ? pageRange(r.pages) : 'part'} of bundle{' '}
        <span class="mono">{shortId(r.parentId)}</span>
      </span>
    );
  return null;
}
