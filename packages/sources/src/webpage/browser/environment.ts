/**
 * What Chromium inherits of the worker's environment: only what a browser needs to find its
 * binaries, fonts, locale and temp space. Everything else stays out, above all the service's
 * secrets (DATABASE_URL, OPENAI_API_KEY, REDIS_URL): Chromium renders pages an attacker chose,
 * and a renderer exploit or a page that reaches `/proc/self/environ` would read what it holds.
 */
const PASSED = [
  'PATH',
  'HOME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  'XDG_RUNTIME_DIR',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
] as const;

export function browserEnvironment(
  from: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
