import { createHash } from 'node:crypto';
import type { PreparedSource, PublicModel, SourceType } from '@xt/contract';

/**
 * The source as the reuse key knows it: the bytes' SHA-256 where the bytes are the source
 * (typed text, an upload, with the content type they were read as), or the SHA-256 of what
 * preparing it produced where the content only exists once fetched (a URL), or, for a URL
 * worked as page windows (never prepared whole in one place), the fetched bytes' SHA-256 with
 * the content type they were read as.
 */
export type ReuseSource =
  | { kind: 'bytes'; sha256: string; contentType: string | null }
  | { kind: 'prepared'; sha256: string }
  | { kind: 'fetched'; sha256: string; contentType: string };

/** Everything but the schema structure that decides an extraction's answer (docs/reuse.md). */
export interface ReuseKeyParts {
  accountId: string;
  type: SourceType;
  source: ReuseSource;
  instruction: string | null | undefined;
  model: PublicModel;
  citations: boolean;
  /** @xt/model's pipelineVersion(): changes with whatever a release changes of the prompts. */
  pipelineVersion: string;
  /** CACHE_NAMESPACE: the operator's own way to start afresh. */
  namespace: string;
}

/**
 * The SHA-256 stored in `extractions.reuse_key`. The schema structure is not in it: it is
 * compared as stored text beside the key (packages/db's schema says why). The instruction
 * counts as the prompt uses it, trimmed, and a blank one as none.
 */
export function reuseKey(parts: ReuseKeyParts): Buffer {
  const instruction = parts.instruction?.trim() || null;
  // A JSON array, so no field's text can run into the next one's.
  const fields = [
    'xt-reuse-1',
    parts.accountId,
    parts.type,
    parts.source,
    instruction,
    parts.model,
    parts.citations,
    parts.pipelineVersion,
    parts.namespace,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest();
}

/** The SHA-256 of typed text, as its bytes (UTF-8). */
export function textSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The SHA-256 of what preparing a fetched source produced, as it reaches the model: its parts
 * (text and page images) and the lines the prompt adds (a page's title and final URL), and
 * whether a limit cut it. The source as read for citations is left out: the key holds the
 * citations flag.
 */
export function preparedSha256(source: PreparedSource): string {
  const { parts, meta, truncated } = source;
  return createHash('sha256')
    .update(JSON.stringify({ parts, meta: meta ?? null, truncated: truncated ?? null }))
    .digest('hex');
}
