import { shortId } from '../format.ts';
import { useSchemaChoices } from '../pages/extractions.tsx';
import { pageRange } from './documents.ts';
import type { SplitPages, SplitRequest } from '../types.ts';

/**
 * A bundle's classes, where an ordinary extraction names its schema: each class with the
 * schema its documents are extracted with (or none), and what becomes of pages of no class.
 */
export function SplitClasses(props: { split: SplitRequest }) {
  const schemas = useSchemaChoices();
  const names = new Map((schemas.data?.data ?? []).map((s) => [s.id, s.name]));
  return (
    <ul class="split-classes" data-testid="split-classes">
      {props.split.classes.map((c) => (
        <li key={c.name}>
          <strong>{c.name}</strong>
          {c.schema_id ? (
            <>
              {' '}
              with{' '}
              <a href={`/dashboard/schemas/${c.schema_id}`}>
                {names.get(c.schema_id) ?? shortId(c.schema_id)}
              </a>
            </>
          ) : (
            <span class="muted"> (not extracted)</span>
          )}
          {c.description && <span class="muted">: {c.description}</span>}
        </li>
      ))}
      <li class="muted">
        {props.split.other
          ? 'pages of no class: documents of class “other”, not extracted'
          : 'every page belongs to one of these classes'}
      </li>
    </ul>
  );
}

/** A child's place in its bundle: "pages 1–2 of bundle <the parent>". */
export function BundleOf(props: { parentId: string; pages: SplitPages | undefined }) {
  return (
    <span data-testid="bundle-of">
      {props.pages ? pageRange(props.pages) : 'part'} of bundle{' '}
      <a href={`/dashboard/extractions/${props.parentId}`} class="mono">
        {props.parentId}
      </a>
    </span>
  );
}
