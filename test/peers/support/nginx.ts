import fs from 'node:fs/promises';
import path from 'node:path';
import { freePort, type Peer, scratch, startPeer, tool } from './processes.js';

export const NGINX = tool('/usr/sbin/nginx', 'nginx');

export interface Nginx extends Peer {
  /** The ports the server blocks were given, in the order asked for. */
  ports: number[];
  /** Lines of the access log: `METHOD URI STATUS`. */
  accessLog(): Promise<string[]>;
}

/**
 * Debian's nginx in the foreground, with a configuration of the test's own in a temp dir.
 * `servers` receives the ports it may listen on (127.0.0.1) and returns server blocks.
 */
export async function startNginx(
  portCount: number,
  servers: (ports: number[], dir: string) => string,
): Promise<Nginx> {
  const dir = await scratch('nginx');
  const ports: number[] = [];
  for (let i = 0; i < portCount; i += 1) ports.push(await freePort());
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await fs.mkdir(path.join(dir, 'tmp', sub), { recursive: true });
  }
  const config = `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 128; }
http {
  log_format lines '$request_method $request_uri $status';
  access_log ${dir}/access.log lines;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  default_type application/octet-stream;
  ${servers(ports, dir)}
}
`;
  await fs.writeFile(path.join(dir, 'nginx.conf'), config);
  const peer = await startPeer(
    '/usr/sbin/nginx',
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    { host: '127.0.0.1', port: ports[0] as number },
  );
  return {
    ...peer,
    ports,
    async accessLog() {
      const text = await fs.readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean);
    },
  };
}
