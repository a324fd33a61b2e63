import { Fragment } from 'preact';
import { StatusBadge } from '../components/ui.tsx';
import { shortId } from '../format.ts';
import { useLoad } from '../hooks.ts';
import { previewUrl } from '../review/place.ts';
import { childrenOf } from './children.ts';
import { OTHER_CLASS, bundlePages, pageRange, percent, type DrawnDocument } from './documents.ts';
import type { ExtractionRecord, ExtractionStatus } from '../types.ts';

/**
 * A split bundle (docs/split.md) on its extraction's page: each document in a legend (its class,
 * pages, confidence and the child extraction with its status) and the bundle's pages coloured
 * by the document they belong to. Every page also says its document's number and class in
 * words, so colour is never the only cue; `other` pages are grey and hatched.
 */
export function BundleView(props: {
  record: ExtractionRecord;
  documents: DrawnDocument[];
  /** The pages the worker stored a preview of (the first ones of the bundle). */
  previewPages: number[];
}) {
  const { record, documents } = props;
  // Read again with every poll of the parent: children finish while it is processing.
  const children = useLoad(() => childrenOf(record.id), [record]);
  const statuses = children.data && new Map(children.data.map((c) => [c.id, c.status]));
  const previews = new Set(props.previewPages);
  const pages = bundlePages(documents);
  const extracted = documents.filter((d) => d.extractionId).length;
  return (
    <section class="bundle section-gap" aria-labelledby="bundle-title" data-testid="bundle">
      <h2 id="bundle-title" class="section-title">
        Documents in this bundle
      </h2>
      <p class="muted">
        {pages.length} {pages.length === 1 ? 'page' : 'pages'}, {documents.length}{' '}
        {documents.length === 1 ? 'document' : 'documents'}, {extracted} extracted
        {extracted > 0 && (
          <>
            {' '}
            (<a href={`/dashboard/extractions?parent_id=${record.id}`}>list them</a>)
          </>
        )}
      </p>
      <ol class="bundle__legend" aria-label="Documents">
        {documents.map((d) => (
          <DocumentEntry key={d.number} document={d} statuses={statuses} />
        ))}
      </ol>
      <ol class="bundle__pages" aria-label="Pages">
        {pages.map(({ page, document: d, starts }) => (
          <li
            key={page}
            class={`bundle-page ${d.colour}${starts ? ' bundle-page--starts' : ''}`}
            data-testid="bundle-page"
            data-page={page}
            data-document={d.number}
          >
            <span class="visually-hidden">
              Page {page}: document {d.number}, {d.class}
            </span>
            <div class="bundle-page__sheet" aria-hidden="true">
              {previews.has(page) ? (
                <img src={previewUrl(record.id, page)} alt="" loading="lazy" />
              ) : (
                <span class="bundle-page__blank" />
              )}
              <span class="bundle-page__number">{page}</span>
            </div>
            {/* The same in words a glance takes in: the document's number and class. */}
            <span class="bundle-page__label" aria-hidden="true">
              <span class="bundle-page__key">{d.number}</span>
              <span class="bundle-page__class">{breakable(d.class)}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function DocumentEntry(props: {
  document: DrawnDocument;
  /** Undefined until loaded; a child missing from it was deleted on its own. */
  statuses: Map<string, ExtractionStatus> | undefined;
}) {
  const d = props.document;
  const status = d.extractionId ? props.statuses?.get(d.extractionId) : undefined;
  return (
    <li class={`bundle-doc ${d.colour}`} data-testid="bundle-document">
      <span class="bundle-doc__key" aria-hidden="true">
        {d.number}
      </span>
      <span class="bundle-doc__what">
        <span class="visually-hidden">Document {d.number}: </span>
        <strong class="bundle-doc__class">{d.class}</strong>{' '}
        <span class="bundle-doc__pages">{pageRange(d.pages)}</span>{' '}
        <span class="muted">· confidence {percent(d.confidence)}</span>
      </span>
      <span class="bundle-doc__child">
        {d.extractionId ? (
          <>
            <a href={`/dashboard/extractions/${d.extractionId}`} class="mono">
              extraction {shortId(d.extractionId)}
            </a>{' '}
            {status ? (
              <StatusBadge status={status} />
            ) : (
              props.statuses && <span class="muted">deleted</span>
            )}
          </>
        ) : (
          <span class="muted">
            {d.class === OTHER_CLASS ? 'no class: not extracted' : 'no schema: not extracted'}
          </span>
        )}
      </span>
    </li>
  );
}

/** A class name that may wrap after its underscores ("delivery_ note"), not mid-word. */
function breakable(name: string) {
  const parts = name.split('_');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}
