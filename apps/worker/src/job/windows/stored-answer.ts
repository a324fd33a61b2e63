import {
  sumSpend,
  type GroundingPage,
  type ImagesAsText,
  type ModelUsage,
  type PreparedSource,
} from '@xt/contract';
import type { ExtractionWindowRow, WindowAnnotations } from '@xt/db';
import type { Annotations, CallResult } from '@xt/model';

/** What the model said about a window's values, as the window's row stores it (JSON). */
export function annotationsToJson(annotations: Annotations): WindowAnnotations {
  return {
    quotes: [...annotations.quotes],
    probabilities: annotations.probabilities ? [...annotations.probabilities] : null,
  };
}

export function annotationsFromJson(stored: WindowAnnotations): Annotations {
  return {
    quotes: new Map(stored.quotes),
    probabilities: stored.probabilities ? new Map(stored.probabilities) : undefined,
  };
}

type StoredWindow = Pick<
  ExtractionWindowRow,
  | 'output'
  | 'annotations'
  | 'truncated'
  | 'grounding'
  | 'pageImages'
  | 'imagesAsText'
  | 'tokens'
  | 'usage'
  | 'calls'
>;

/**
 * The stored windows of one document, given in page order, as what the one-job path has at
 * the same point: each window's answer (to merge, as the chunks' are), the pages as read (to
 * locate values in, with the document's own page numbers), the previews the windows drew of
 * their cited pages, what was sent as text in place of images over all of them (the record's
 * IMAGES_READ_AS_TEXT warning, as one job would give it), and what all their calls spent.
 */
export function joinWindows(windows: StoredWindow[]): {
  answers: CallResult[];
  source: PreparedSource;
  pageImages: Record<string, string> | null;
  tokens: number;
  usage: ModelUsage;
  calls: number;
} {
  const pages: GroundingPage[] = [];
  const pageImages: Record<string, string> = {};
  let calls = 0;
  let grounded = false;
  let asText: ImagesAsText | undefined;
  for (const w of windows) {
    if (w.imagesAsText) {
      const before = asText ?? { pages: 0, images: 0, leftOut: 0 };
      asText = {
        pages: before.pages + w.imagesAsText.pages,
        images: before.images + w.imagesAsText.images,
        leftOut: before.leftOut + w.imagesAsText.leftOut,
      };
    }
    if (w.grounding) {
      grounded = true;
      pages.push(...w.grounding);
    }
    Object.assign(pageImages, w.pageImages ?? {});
    calls += w.calls;
  }
  return {
    answers: windows.map((w) => ({
      output: w.output,
      annotations: annotationsFromJson(w.annotations),
      truncated: w.truncated,
    })),
    source: {
      parts: [],
      ...(grounded ? { grounding: { kind: 'pages', pages } } : {}),
      ...(asText ? { imagesAsText: asText } : {}),
    },
    pageImages: Object.keys(pageImages).length > 0 ? pageImages : null,
    ...sumSpend(windows),
    calls,
  };
}
