import { api, query, type Page } from '../api.ts';
import type { ExtractionListRecord } from '../types.ts';

/** The API's largest page of a list. */
const LIMIT = 100;
/** Enough for any bundle the service splits; a child past these shows no status. */
const MAX_PAGES = 20;

/** A bundle's children (`GET /extractions?parent_id=`, every page of it), in the list's order. */
export async function childrenOf(parentId: string): Promise<ExtractionListRecord[]> {
  const children: ExtractionListRecord[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await api.get<Page<ExtractionListRecord>>(
      `/extractions${query({ parent_id: parentId, limit: LIMIT, page })}`,
    );
    children.push(...list.data);
    if (page >= list.meta.lastPage) break;
  }
  return children;
}
