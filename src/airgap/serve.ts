import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodedUrlPath, type SiteTree } from './site-tree.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** A `%` that two hex digits do not follow. */
const LONE_PERCENT = /%(?![0-9a-f]{2})/i;

export interface SiteServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves an extracted site on a loopback port with the export's URL rules (the file,
 * then `.html` appended, then a directory's index.html; 404.html for the rest), so the
 * browser sees it as a reader on a correctly configured host would. As nginx does, a
 * directory asked for without its trailing slash is a redirect to it (so the index
 * page's relative references resolve inside the directory), and a path that is no
 * percent-encoding a bad request.
 */
export async function serveSite(tree: SiteTree): Promise<SiteServer> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (LONE_PERCENT.test(url.pathname)) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('bad request');
      return;
    }
    const decoded = decodedUrlPath(url.pathname);
    const resolved =
      decoded !== undefined && (request.method === 'GET' || request.method === 'HEAD')
        ? tree.resolve(decoded)
        : undefined;
    // As decoded: nginx serves `/guides/setup%2F` as the folder's index, with no redirect.
    if (resolved?.rule === 'index' && !decoded?.endsWith('/')) {
      response.writeHead(301, { location: `${url.pathname}/${url.search}` });
      response.end();
      return;
    }
    const send = (file: string, status: number) => {
      response.writeHead(status, {
        'content-type':
          CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      if (request.method === 'HEAD') response.end();
      else
        createReadStream(path.join(tree.root, ...file.split('/')))
          .on('error', () => response.destroy())
          .pipe(response);
    };
    if (resolved) {
      send(resolved.file, 200);
      return;
    }
    if (tree.files.has('404.html')) send('404.html', 404);
    else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
