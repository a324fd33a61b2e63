export { classifyIp, parseIp, type IpClass } from './classify.ts';
export {
  parseAllowlist,
  isAllowlisted,
  normalizeHost,
  EMPTY_ALLOWLIST,
  type Allowlist,
  type AllowlistTarget,
} from './allowlist.ts';
export { resolveAndCheck, systemLookup, type LookupAll, type ResolvedAddress } from './resolve.ts';
export { checkSubmittedUrl, MAX_URL_LENGTH } from './submit-url.ts';
export {
  createPinnedConnector,
  createPinnedDispatcher,
  type PinnedConnectorOptions,
} from './pinned-dispatcher.ts';
export {
  safeFetch,
  DEFAULT_MAX_REDIRECTS,
  type SafeFetchOptions,
  type SafeFetchResult,
} from './safe-fetch.ts';
export { fetchSource, type FetchedSource } from './fetch-source.ts';
export { defaultPort } from './submit-url.ts';
export { safePost, type SafePostOptions } from './safe-post.ts';
