import type { Request, Response } from 'express';
import { sendOk } from '../envelope/envelope.ts';
import type { PaginationMeta } from '@xt/contract';

/**
 * The origin list links are built on: PUBLIC_URL when it is set (what people use, whatever the
 * hops in between say), else the request's scheme and host, which Express takes from
 * X-Forwarded-Proto and X-Forwarded-Host only when TRUST_PROXY trusts the hop. A host that is
 * not one (`a b`, `evil.example/x`, `user@host`) gives no origin: the links are then relative,
 * which RFC 8288 allows and the client resolves against the URL it asked for.
 */
function linkOrigin(req: Request): string | undefined {
  const configured = req.app.locals.publicOrigin;
  if (configured !== undefined) return configured;
  const host = req.host;
  // A name or address and a port, nothing that would end the authority (`/`, `@`, `?`, space).
  if (host === undefined || !/^[\w.:[\]-]+$/.test(host)) return undefined;
  const base = `${req.protocol}://${host}`;
  return URL.canParse(base) ? new URL(base).origin : undefined;
}

/**
 * RFC 8288 `Link` of a list page: the first, previous, next and last pages, each the request's
 * own URL with another `page` (every other parameter kept), so a client can follow pages without
 * building URLs. Absolute on linkOrigin's origin when there is one. `meta` keeps the interface's
 * relative `/?page=n` as it is.
 */
export function pageLinks(req: Request, meta: PaginationMeta): string {
  const origin = linkOrigin(req);
  // The path is set, not resolved against the origin: `//other.host/…` stays a path.
  const url = new URL(origin ?? 'http://relative.invalid');
  const query = req.originalUrl.indexOf('?');
  url.pathname = query < 0 ? req.originalUrl : req.originalUrl.slice(0, query);
  url.search = query < 0 ? '' : req.originalUrl.slice(query);
  const at = (page: number) => {
    url.searchParams.set('page', String(page));
    return origin === undefined ? `${url.pathname}${url.search}` : url.href;
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
