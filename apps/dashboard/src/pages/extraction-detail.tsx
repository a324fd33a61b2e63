import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api } from '../api.ts';
import {
  ErrorNotice,
  JsonBlock,
  PageHeader,
  PageProgress,
  Spinner,
  StatusBadge,
} from '../components/ui.tsx';
import { formatBytes, formatDateTime, formatNumber } from '../format.ts';
import { useLoad, useTitle } from '../hooks.ts';
import { ReviewSection } from '../review/review-section.tsx';
import { BundleProgress } from '../split/bundle-progress.tsx';
import { BundleView } from '../split/bundle-view.tsx';
import { documentsOf, drawDocuments } from '../split/documents.ts';
import { BundleOf, SplitClasses } from '../split/split-details.tsx';
import type { ExtractionRecord, ExtractionReview, SheetExcerpt } from '../types.ts';

const POLL_MS = 1000;

export function ExtractionDetailPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  useTitle(`Extraction ${id.slice(0, 8)}`);
  const record = useLoad(() => api.get<ExtractionRecord>(`/extractions/${id}`), [id]);
  const r = record.data;
  const running = r?.status === 'pending' || r?.status === 'processing';
  // Read again once final: the page previews are stored with the completion.
  const review = useLoad(
    () => api.get<ExtractionReview>(`/extractions/${id}/review`),
    [id, running],
  );
  // A spreadsheet's cells around its cited cells, once the review says they are stored.
  const hasCells = review.data?.cells === true;
  const cells = useLoad(
    () =>
      hasCells ? api.get<SheetExcerpt>(`/extractions/${id}/cells`) : Promise.resolve(undefined),
    [id, hasCells],
  );

  // Watch it finish: poll while it is pending or processing.
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(record.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, r, record.reload]);

  if (!r && record.loading) return <Spinner />;
  if (!r)
    return (
      <>
        <PageHeader title="Extraction" />
        {record.error && <ErrorNotice error={record.error} onRetry={record.reload} />}
        <a href="/dashboard/extractions">Back to extractions</a>
      </>
    );
  const file = r.source.file;
  // A split bundle's documents, once it has them (docs/split.md).
  const documents = r.split ? documentsOf(r.result) : undefined;
  return (
    <>
      <PageHeader title="Extraction">
        <a class="button" href="/dashboard/extractions/new">
          Run another
        </a>
      </PageHeader>
      <p class="lead mono">{r.id}</p>
      <div class="card">
        <dl class="details">
          <dt>Status</dt>
          <dd>
            <span data-testid="status">
              <StatusBadge status={r.status} />
            </span>{' '}
            <PageProgress progress={r.progress} />
            {running && <span class="muted"> · updating live</span>}
          </dd>
          {r.parentId && (
            <>
              <dt>Bundle</dt>
              <dd>
                <BundleOf parentId={r.parentId} pages={r.pages} />
              </dd>
            </>
          )}
          {r.split ? (
            <>
              <dt>Split into</dt>
              <dd>
                <SplitClasses split={r.split} />
              </dd>
            </>
          ) : (
            <>
              <dt>Schema</dt>
              <dd>
                {review.data ? (
                  <a href={`/dashboard/schemas/${r.schemaId}`} data-testid="schema-name">
                    {review.data.schemaName}
                  </a>
                ) : (
                  <a href={`/dashboard/schemas/${r.schemaId}`} class="mono">
                    {r.schemaId}
                  </a>
                )}
              </dd>
            </>
          )}
          <dt>Source</dt>
          <dd>
            <span class="badge">{r.source.type}</span>{' '}
            {file ? (
              <>
                {file.name} · {formatBytes(file.size)} · {file.contentType}
                <br />
                <span class="muted mono">sha256 {file.sha256}</span>
                {file.removedAt && (
                  <>
                    <br />
                    <span class="muted">file removed {formatDateTime(file.removedAt)}</span>
                  </>
                )}
              </>
            ) : (
              <span class="source-text">{r.source.content}</span>
            )}
          </dd>
          <dt>Tokens</dt>
          <dd>{formatNumber(r.totalTokens)}</dd>
          <dt>Charged</dt>
          <dd>{r.charged ? 'yes' : 'no'}</dd>
          {r.priority === 'batch' && (
            <>
              <dt>Priority</dt>
              <dd data-testid="priority">batch: through the provider’s batch interface</dd>
            </>
          )}
          {r.reused && (
            <>
              <dt>Reused</dt>
              <dd data-testid="reused">
                the answer of{' '}
                <a href={`/dashboard/extractions/${r.reused.extractionId}`} class="mono">
                  {r.reused.extractionId}
                </a>
                , completed at once without model tokens
              </dd>
            </>
          )}
          <dt>Created</dt>
          <dd>{formatDateTime(r.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{formatDateTime(r.updatedAt)}</dd>
        </dl>
      </div>
      {record.error && <ErrorNotice error={record.error} onRetry={record.reload} />}
      {r.error && (
        <div class="notice notice--error" role="alert">
          <span>
            <strong>{r.error.code}</strong>: {r.error.message}
          </span>
        </div>
      )}
      {r.warnings?.map((w) => (
        <div class="notice notice--warn" role="status" key={`${w.code}${w.path}`}>
          <span>
            <strong>{w.code}</strong>
            {w.path && <span class="mono"> {w.path}</span>}: {w.message}
          </span>
        </div>
      ))}
      {documents && (
        <BundleView
          record={r}
          documents={drawDocuments(documents)}
          previewPages={review.data?.previewPages ?? []}
        />
      )}
      {r.split && !documents && running && <BundleProgress record={r} split={r.split} />}
      <div class="grid-2 section-gap">
        <section aria-labelledby="output-title">
          <h2 id="output-title" class="section-title">
            Output
          </h2>
          {r.status === 'completed' ? (
            <JsonBlock value={r.result} label="Output" />
          ) : (
            <p class="muted">{running ? 'Not finished yet…' : 'No output.'}</p>
          )}
        </section>
        <section aria-labelledby="metadata-title">
          <h2 id="metadata-title" class="section-title">
            Metadata
          </h2>
          {r.metadata && Object.keys(r.metadata).length > 0 ? (
            <dl class="details card">
              {Object.entries(r.metadata).map(([k, v]) => (
                <Fragment key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </Fragment>
              ))}
            </dl>
          ) : (
            <p class="muted">None.</p>
          )}
        </section>
      </div>
      {r.status === 'completed' && r.citations && !r.split && (
        <ReviewSection
          record={r}
          previewPages={review.data?.previewPages ?? []}
          partPreviews={review.data?.partPreviews ?? {}}
          sheets={cells.data?.sheets}
        />
      )}
    </>
  );
}
