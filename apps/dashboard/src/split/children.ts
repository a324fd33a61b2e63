import { api, query, type Page } from '../api.ts';
import type { ExtractionListRecord, ExtractionStatus } from '../types.ts';

/** The API's largest page of a list. */
const LIMIT = 100;
/** Enough pages for any bundle the service splits; past this the legend says "not loaded". */
const MAX_PAGES = 20;

/** A bundle's children by id: their status (`GET /extractions?parent_id=`, every page of it). */
export async function childStatuses(parentId: string): Promise<Map<string, ExtractionStatus>> {
  const statuses = new Map<string, ExtractionStatus>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await api.get<Page<ExtractionListRecord>>(
      `/extractions${query({ parent_id: parentId, limit: LIMIT, page })}`,
    );
    for (const child of list.data) statuses.set(child.id, child.status);
    if (page >= list.meta.lastPage) break;
  }
  return statuses;
}
