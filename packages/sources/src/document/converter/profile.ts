import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The settings every conversion's fresh LibreOffice profile starts with, each closing a way a
 * document could make the converter do more than lay itself out:
 * - macros: security "very high" with no trusted locations, and macro execution disabled
 *   outright, so no Basic, Python or event-bound script in a document ever runs;
 * - links: Writer's and Calc's "update links when loading" set to never, and referer-less
 *   linked content (external images, remote templates) blocked, so nothing named by URL is
 *   fetched;
 * - network: a manual proxy at a closed loopback port for HTTP, HTTPS and FTP, so that even
 *   where the converter shares the worker's network, anything LibreOffice would download fails
 *   at once instead of leaving the machine (the network namespace is the first line);
 * - no Java, no recovery data, no autosave: nothing outlives or reaches past the conversion.
 */
const SETTINGS: [path: string, name: string, type: 'int' | 'boolean' | 'string', value: string][] =
  [
    ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', 'int', '3'],
    [
      '/org.openoffice.Office.Common/Security/Scripting',
      'DisableMacrosExecution',
      'boolean',
      'true',
    ],
    [
      '/org.openoffice.Office.Common/Security/Scripting',
      'BlockUntrustedRefererLinks',
      'boolean',
      'true',
    ],
    // Writer: 0 never, 1 on request, 2 always; Calc: 0 always, 1 never, 2 on request.
    ['/org.openoffice.Office.Writer/Content/Update', 'Link', 'int', '0'],
    ['/org.openoffice.Office.Writer/Content/Update', 'Field', 'boolean', 'false'],
    ['/org.openoffice.Office.Calc/Content/Update', 'Link', 'int', '1'],
    ['/org.openoffice.Inet/Settings', 'ooInetProxyType', 'int', '1'],
    ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyName', 'string', '127.0.0.1'],
    ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyPort', 'int', '9'],
    ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyName', 'string', '127.0.0.1'],
    ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyPort', 'int', '9'],
    ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyName', 'string', '127.0.0.1'],
    ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyPort', 'int', '9'],
    ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', 'string', ''],
    ['/org.openoffice.Office.Java/VirtualMachine', 'Enable', 'boolean', 'false'],
    ['/org.openoffice.Office.Recovery/RecoveryInfo', 'Enabled', 'boolean', 'false'],
    ['/org.openoffice.Office.Recovery/AutoSave', 'Enabled', 'boolean', 'false'],
    ['/org.openoffice.Office.Common/Misc', 'FirstRun', 'boolean', 'false'],
  ];

const escape = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The profile's `registrymodifications.xcu`: LibreOffice reads it as the user's own settings. */
export function profileSettings(): string {
  const items = SETTINGS.map(
    ([at, name, type, value]) =>
      `<item oor:path="${at}"><prop oor:name="${name}" oor:op="fuse"><value xsi:type="xs:${type}">${escape(value)}</value></prop></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${items.join('\n')}
</oor:items>
`;
}

/**
 * Writes a fresh profile under `dir` and returns it as the `-env:UserInstallation` URL
 * LibreOffice takes. Nothing of an earlier conversion is in it.
 */
export async function writeProfile(dir: string): Promise<string> {
  const user = path.join(dir, 'profile', 'user');
  await mkdir(user, { recursive: true });
  await writeFile(path.join(user, 'registrymodifications.xcu'), profileSettings());
  return `file://${path.join(dir, 'profile')}`;
}
