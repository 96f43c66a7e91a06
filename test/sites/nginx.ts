import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../peers/support/processes.js';
import { type RunningServer, whenServing } from './web-servers.js';

/** Debian's nginx binary, when installed. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file));

const MIME_TYPES = `types {
  text/html html htm; text/css css; text/javascript js mjs; application/json json map;
  application/manifest+json webmanifest; text/plain txt; application/xml xml;
  image/svg+xml svg; image/png png; image/jpeg jpg jpeg; image/webp webp; image/x-icon ico;
  font/woff woff; font/woff2 woff2; application/wasm wasm;
}
default_type application/octet-stream;`;

export type RunningNginx = RunningServer;

/**
 * Starts the real nginx in the foreground on a loopback port with a `server` block
 * made by `serverBlock(listen)`, its state in a temp directory; stop() ends it by pid.
 */
export async function startNginx(serverBlock: (listen: string) => string): Promise<RunningNginx> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  const prefix = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-nginx-'));
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const temp = (name: string) => `${name}_temp_path ${path.join(prefix, name)};`;
  const config = `daemon off;
master_process off;
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${MIME_TYPES}
${serverBlock(listen)}
}
`;
  const file = path.join(prefix, 'nginx.conf');
  await fs.writeFile(file, config);
  const test = spawnSync(NGINX, ['-t', '-p', prefix, '-c', file], { encoding: 'utf8' });
  if (test.status !== 0)
    throw new Error(`nginx refused the configuration:\n${test.stderr}\n${config}`);
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', file], { stdio: 'ignore' });
  return whenServing('nginx', child, `http://${listen}`, prefix, () =>
    fs.readFile(path.join(prefix, 'error.log'), 'utf8'),
  );
}
