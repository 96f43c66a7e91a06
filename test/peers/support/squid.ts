import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type ForwardProxy,
  freePort,
  proxyUrl,
  run,
  scratch,
  startPeer,
  tool,
} from './processes.js';

export const SQUID = tool('/usr/sbin/squid', 'squid');

export interface Squid extends ForwardProxy {
  /** Lines of the access log: `METHOD URL STATUS`. */
  accessLog(): Promise<string[]>;
}

/**
 * Debian's squid with the rules a default install has for CONNECT (only to port 443 and
 * the ports in `tlsPorts`), optionally Basic authentication, on loopback.
 */
export async function startSquid(
  options: {
    auth?: { user: string; password: string };
    tlsPorts?: number[];
    /** Clients speak TLS to it, with this certificate (an `https://` proxy). */
    tls?: { certFile: string; keyFile: string };
  } = {},
): Promise<Squid> {
  const dir = await scratch('squid');
  // squid drops to the `proxy` user: it must reach this directory and write its logs here.
  await fs.chmod(path.dirname(dir), 0o711);
  await fs.chmod(dir, 0o777);
  const port = await freePort();
  const lines = [
    options.tls
      ? `https_port 127.0.0.1:${port} tls-cert=${options.tls.certFile} tls-key=${options.tls.keyFile}`
      : `http_port 127.0.0.1:${port}`,
    `pid_filename ${dir}/squid.pid`,
    `cache_log ${dir}/cache.log`,
    `logformat lines %rm %ru %>Hs`,
    `access_log stdio:${dir}/access.log lines`,
    'cache deny all',
    `coredump_dir ${dir}`,
    'shutdown_lifetime 0 seconds',
    'pinger_enable off',
    `acl SSL_ports port 443 ${(options.tlsPorts ?? []).join(' ')}`,
    'acl CONNECT method CONNECT',
    'http_access deny CONNECT !SSL_ports',
  ];
  if (options.auth) {
    const hash = (await run('openssl', ['passwd', '-apr1', options.auth.password])).stdout.trim();
    await fs.writeFile(path.join(dir, 'passwd'), `${options.auth.user}:${hash}\n`, { mode: 0o644 });
    lines.push(
      `auth_param basic program /usr/lib/squid/basic_ncsa_auth ${dir}/passwd`,
      'acl authenticated proxy_auth REQUIRED',
      'http_access allow authenticated',
    );
  } else {
    lines.push('http_access allow all');
  }
  lines.push('http_access deny all');
  await fs.writeFile(path.join(dir, 'squid.conf'), `${lines.join('\n')}\n`);
  const peer = await startPeer('/usr/sbin/squid', ['-N', '-f', path.join(dir, 'squid.conf')], {
    host: '127.0.0.1',
    port,
  });
  return {
    ...peer,
    port,
    url: proxyUrl(port, options.auth, options.tls ? 'https' : 'http'),
    async accessLog() {
      const text = await fs.readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
      // Lines of requests only: a bare connection (the readiness probe) logs as `- error:…`.
      return text.split('\n').filter((line) => /^[A-Z]+ /.test(line));
    },
  };
}
