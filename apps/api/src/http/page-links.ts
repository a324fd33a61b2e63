import type { Request, Response } from 'express';
import { sendOk } from './envelope.ts';
import type { PaginationMeta } from '@xt/contract';

/**
 * RFC 8288 `Link` of a list page: absolute URLs of the first, previous, next and last pages, each
 * the request's own URL with another `page` (every other parameter kept), so a client can follow
 * pages without building URLs. `meta` keeps the interface's relative `/?page=n` as it is. The
 * scheme and host are Express's `req.protocol` and `req.host`, which honour X-Forwarded-Proto
 * and X-Forwarded-Host only from a proxy TRUST_PROXY trusts.
 */
export function pageLinks(req: Request, meta: PaginationMeta): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.host}`);
  const at = (page: number) => {
    url.searchParams.set('page', String(page));
    return url.href;
  };
  const links: [string, number | null][] = [
    ['first', meta.firstPage],
    ['prev', meta.previousPageUrl === null ? null : meta.currentPage - 1],
    ['next', meta.nextPageUrl === null ? null : meta.currentPage + 1],
    ['last', meta.lastPage],
  ];
  return links
    .filter((link): link is [string, number] => link[1] !== null)
    .map(([rel, page]) => `<${at(page)}>; rel="${rel}"`)
    .join(', ');
}

/** A list answer: `{ data, meta }` in the envelope, with its `Link` header. */
export function sendPage(
  req: Request,
  res: Response,
  page: { data: unknown[]; meta: PaginationMeta },
  message: string,
): void {
  res.setHeader('Link', pageLinks(req, page.meta));
  sendOk(res, page, message);
}
