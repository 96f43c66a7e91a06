import fs from 'node:fs/promises';
import path from 'node:path';
import { type ForwardProxy, freePort, proxyUrl, scratch, startPeer, tool } from './processes.js';

export const TINYPROXY = tool('/usr/bin/tinyproxy', 'tinyproxy');

export interface Tinyproxy extends ForwardProxy {
  /** The requests it received, as its log lists them: `METHOD TARGET`. */
  requests(): Promise<string[]>;
}

/**
 * Debian's tinyproxy on loopback, CONNECT allowed only to port 443 and the ports in
 * `tlsPorts`, optionally with Basic authentication (its configuration takes letters,
 * digits and `-_.` in a password). It answers in ways squid does not: HTTP/1.0, and
 * 401 (not 407) to wrong credentials, with no header that marks the answer as its own.
 */
export async function startTinyproxy(
  options: { auth?: { user: string; password: string }; tlsPorts?: number[] } = {},
): Promise<Tinyproxy> {
  const dir = await scratch('tinyproxy');
  const port = await freePort();
  const log = path.join(dir, 'tinyproxy.log');
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 60',
    `LogFile "${log}"`,
    'LogLevel Connect',
    `PidFile "${dir}/tinyproxy.pid"`,
    'MaxClients 50',
    'Allow 127.0.0.1',
    'ConnectPort 443',
    ...(options.tlsPorts ?? []).map((p) => `ConnectPort ${p}`),
  ];
  if (options.auth) lines.push(`BasicAuth ${options.auth.user} ${options.auth.password}`);
  await fs.writeFile(path.join(dir, 'tinyproxy.conf'), `${lines.join('\n')}\n`);
  const peer = await startPeer(
    '/usr/bin/tinyproxy',
    ['-d', '-c', path.join(dir, 'tinyproxy.conf')],
    { host: '127.0.0.1', port },
  );
  return {
    ...peer,
    port,
    url: proxyUrl(port, options.auth),
    async requests() {
      const text = await fs.readFile(log, 'utf8').catch(() => '');
      return [...text.matchAll(/Request \(file descriptor \d+\): (\S+) (\S+)/g)].map(
        ([, method, target]) => `${method} ${target}`,
      );
    },
  };
}
