import fs from 'node:fs/promises';
import path from 'node:path';
import { type ForwardProxy, freePort, proxyUrl, scratch, startPeer, tool } from './processes.js';

export const MICROSOCKS = tool('/usr/bin/microsocks', 'microsocks');
export const DANTE = tool('/usr/sbin/danted', 'dante-server');

/** A SOCKS5 proxy: its URL is a `socks5://` one. */
export type SocksProxy = ForwardProxy;

/** Debian's microsocks on loopback, optionally asking for a user name and password. */
export async function startMicrosocks(
  options: { auth?: { user: string; password: string } } = {},
): Promise<SocksProxy> {
  const port = await freePort();
  const auth = options.auth ? ['-u', options.auth.user, '-P', options.auth.password] : [];
  const peer = await startPeer(
    '/usr/bin/microsocks',
    ['-i', '127.0.0.1', '-p', String(port), ...auth],
    { host: '127.0.0.1', port },
  );
  return { ...peer, port, url: proxyUrl(port, options.auth, 'socks5') };
}

/**
 * Debian's Dante server on loopback, without authentication, its rules refusing every
 * connection to the ports in `blocked` (SOCKS5 reply 2, "not allowed by ruleset").
 */
export async function startDante(options: { blocked?: number[] } = {}): Promise<SocksProxy> {
  const dir = await scratch('dante');
  const port = await freePort();
  const lines = [
    `logoutput: ${dir}/danted.log`,
    `internal: 127.0.0.1 port = ${port}`,
    'external: 127.0.0.1',
    'socksmethod: none',
    'clientmethod: none',
    'user.privileged: root',
    'user.unprivileged: nobody',
    'client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }',
    ...(options.blocked ?? []).map(
      (p) => `socks block { from: 0.0.0.0/0 to: 127.0.0.1/32 port = ${p} log: error connect }`,
    ),
    'socks pass { from: 0.0.0.0/0 to: 0.0.0.0/0 }',
  ];
  await fs.writeFile(path.join(dir, 'danted.conf'), `${lines.join('\n')}\n`);
  const peer = await startPeer(
    '/usr/sbin/danted',
    ['-f', path.join(dir, 'danted.conf'), '-p', path.join(dir, 'danted.pid')],
    { host: '127.0.0.1', port },
  );
  return { ...peer, port, url: proxyUrl(port, undefined, 'socks5') };
}
