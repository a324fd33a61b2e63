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
