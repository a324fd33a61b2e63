import { CHROMIUM_BASE_ARGS } from '@xt/runtime';

/**
 * Command-line switches for a Chromium whose every connection goes through the filtering proxy.
 *
 * - The proxy itself is set by Playwright (launch and per-context `proxy`), which also adds
 *   `<-loopback>` to the bypass list: Chromium otherwise sends localhost straight out, and that
 *   would let a page reach services on this machine.
 * - QUIC is off so nothing tries UDP to an origin; WebRTC may only use proxied transports
 *   (`disable_non_proxied_udp`), which with an HTTP proxy means no peer connection at all.
 * - The host resolver maps every name to "not found": with a proxy Chromium never needs to
 *   resolve a web host itself (the proxy does), so this turns any path that would bypass the
 *   proxy (pre-resolution, preconnect, a future feature) into a failure instead of a lookup.
 *   The proxy is addressed by IP literal, which the resolver rules do not touch.
 * - Background networking, component updates, sync and first-run are off (CHROMIUM_BASE_ARGS,
 *   shared with every Chromium the project launches): on a closed network they only hang or
 *   retry, and they have no business in a rendering sandbox.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  ...CHROMIUM_BASE_ARGS,
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-breakpad',
  '--disable-domain-reliability',
  '--metrics-recording-only',
  '--no-pings',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--disable-features=DnsOverHttps,MediaRouter,OptimizationHints',
  // Renderers that hit the heap limit crash cleanly instead of swapping the worker host.
  '--js-flags=--max-old-space-size=512',
];
