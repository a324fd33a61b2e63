/**
 * What the converter inherits of the worker's environment: only what LibreOffice needs to find
 * its programs, fonts and locale. Never the service's settings (DATABASE_URL, OPENAI_API_KEY,
 * REDIS_URL, proxies): the converter parses files an attacker chose. HOME and TMPDIR are the
 * conversion's own directory, so nothing is read from or left in anyone's home.
 */
const PASSED = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'TZ', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE'];

export function converterEnvironment(
  from: Readonly<Record<string, string | undefined>>,
  home: string,
): Record<string, string> {
  const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  for (const name of PASSED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  // LibreOffice's headless drawing backend: no display, no desktop integration.
  env.SAL_USE_VCLPLUGIN = 'svp';
  env.HOME = home;
  env.TMPDIR = home;
  return env;
}
