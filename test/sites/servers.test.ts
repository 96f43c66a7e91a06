/**
 * The README's Caddy, Apache and CloudFront configurations, taken from the README itself,
 * held to the nginx block the check prints: Debian's Caddy, Apache and nginx serve the
 * same export on loopback, and each request must get the same page, after the same
 * redirects, from all three (a missing page: a 404 with the export's 404.html); the
 * CloudFront Function, in front of s3rver, the same page but where the README says not.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxConfig } from '../../src/airgap/serving.js';
import { NGINX, startNginx } from './nginx.js';
import { type ObjectStore, startObjectStore } from '../peers/support/s3.js';
import { APACHE, CADDY, type RunningServer, startApache, startCaddy } from './web-servers.js';
import { writeTree } from '../support/files.js';

const CI = process.env.CI === 'true';
const missing = [
  ...(NGINX ? [] : ['nginx']),
  ...(CADDY ? [] : ['caddy']),
  ...(APACHE ? [] : ['apache2-bin']),
];
if (missing.length > 0 && !CI)
  console.log(`Skipping the server configurations: no ${missing.join(', ')}.`);

/** The README's first code block in `language`. */
async function readmeBlock(language: string): Promise<string> {
  const readme = await fs.readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  if (block === undefined) throw new Error(`README.md has no ${language} block`);
  return block;
}

/** An export's shapes: pages with and without folders, Next.js's RSC folders, odd names. */
const FILES = [
  'index.html',
  '404.html',
  'guides/intro.html',
  // Next.js: a folder of RSC payloads beside each page.
  'guides/intro/payload.txt',
  'guides/setup/index.html',
  'guides/v1.2.html',
  'guides/a b.html',
  'guides/100%.html',
  'guides/hash#.html',
  'guides/data.json',
  'guides/empty/note.txt',
  'both.html',
  'both/index.html',
  'assets/app.css',
  // Folders whose names a URL escapes, and files without an extension.
  'odd/100%/index.html',
  'odd/h#/index.html',
  'odd/q?d/index.html',
  'CNAME',
  '.well-known/apple-app-site-association',
];

/** Each file holds its own name, so that a page served is known by its text. */
const contents = FILES.map((file) => [file, `the file ${file}`] as const);

const REQUESTS = [
  ...['/', '/index', '/index.html', '/guides/intro', '/guides/intro/', '/guides/intro.html'],
  ...['/guides/intro?tab=1', '/guides/intro/payload.txt', '/guides/setup', '/guides/setup/'],
  ...['/guides/setup?tab=1', '/guides/setup/index', '/guides/v1.2', '/guides/a%20b'],
  ...['/guides/100%25', '/guides/hash%23', '/guides/data', '/guides/data.json'],
  ...['/guides/empty/', '/guides/empty/note.txt', '/both', '/both/', '/assets/app.css'],
  ...['/assets/', '/nope', '/guides/nope/', '/guides/intro.html/'],
  ...['/odd/100%25', '/odd/100%25/', '/odd/h%23', '/odd/h%23/', '/odd/q%3Fd', '/odd/q%3Fd/'],
  ...['/CNAME', '/.well-known/apple-app-site-association'],
];

/** Where Caddy (2.6, Debian's) answers otherwise, harmlessly: the README says so. */
const CADDY_DIFFERS: Record<string, string> = {
  // The slash it adds to a folder's address drops the query.
  '/guides/setup?tab=1': '→ /guides/setup/ the file guides/setup/index.html',
  // A file asked for with a slash after its name is a redirect to it.
  '/guides/intro.html/': '→ /guides/intro.html the file guides/intro.html',
  // The slash it adds to a folder's address comes with the name decoded: `%`, `#` and `?`
  // then break the address.
  '/odd/100%25': '→ /odd/100%/ 400',
  '/odd/h%23': '→ /odd/h not served',
  '/odd/q%3Fd': '→ /odd/q?d/ not served',
};

/** What the function cannot serve, as the README says: it cannot look into the bucket. */
const CLOUDFRONT_DIFFERS: Record<string, string> = {
  '/guides/setup': 'a folder without its slash reads as a page',
  '/guides/setup?tab=1': 'a folder without its slash reads as a page',
  '/guides/v1.2': 'a page whose name has a dot reads as a file',
  '/odd/100%25': 'a folder without its slash reads as a page',
  '/odd/h%23': 'a folder without its slash reads as a page',
  '/odd/q%3Fd': 'a folder without its slash reads as a page',
  '/CNAME': 'a file without an extension reads as a page',
  '/.well-known/apple-app-site-association': 'a file without an extension reads as a page',
};

/** Where Apache (2.4, Debian's) answers otherwise: the README says so. */
const APACHE_DIFFERS: Record<string, string> = {
  // The slash its rule adds comes with the name decoded: a `?` starts a query there.
  '/odd/q%3Fd': 'not served',
};

describe.skipIf(missing.length > 0 && !CI)("the README's server configurations", () => {
  let root: string;
  const servers: Record<string, RunningServer> = {};
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-servers-'));
    await writeTree(root, contents);
    servers.nginx = await startNginx((listen) =>
      nginxConfig({ has404Page: true }, { root, listen }),
    );
    const caddy = await readmeBlock('caddy');
    servers.Caddy = await startCaddy((address) =>
      caddy.replace(/^\S+ \{/, `${address} {`).replace(/root \* \S+/, `root * ${root}`),
    );
    servers.Apache = await startApache(root, await readmeBlock('apache'));
  });
  afterAll(async () => {
    for (const server of Object.values(servers)) await server.stop();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  /**
   * What a reader gets for `target`, sent as written: the redirects followed (each by the
   * path it leads to), then the file served, or "not served" (403 and 404 alike: a folder
   * without an index is 403 to nginx, 404 to the others).
   */
  async function answer(origin: string, target: string, hops = 0): Promise<string> {
    const { hostname, port } = new URL(origin);
    const { status, location, body } = await new Promise<{
      status: number;
      location: string | undefined;
      body: string;
    }>((resolve, reject) => {
      http
        .get({ host: hostname, port, path: target }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              location: response.headers.location,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        })
        .on('error', reject);
    });
    if ([301, 302, 307, 308].includes(status) && location && hops < 3) {
      const next = new URL(location, origin);
      return `→ ${next.pathname}${next.search} ${await answer(origin, `${next.pathname}${next.search}`, hops + 1)}`;
    }
    if (status === 200) return body;
    return status === 403 || status === 404 ? 'not served' : `${status}`;
  }

  it.each(REQUESTS)('%s: Caddy and Apache serve what nginx does', async (target) => {
    const expected = await answer(servers.nginx!.origin, target);
    expect(await answer(servers.Caddy!.origin, target), 'Caddy').toBe(
      CADDY_DIFFERS[target] ?? expected,
    );
    expect(await answer(servers.Apache!.origin, target), 'Apache').toBe(
      APACHE_DIFFERS[target] ?? expected,
    );
  });

  it('each answers a missing page with the export’s 404.html', async () => {
    for (const [name, server] of Object.entries(servers)) {
      const response = await fetch(`${server.origin}/no/such/page`);
      expect(response.status, name).toBe(404);
      expect(await response.text(), name).toBe('the file 404.html');
    }
  });

  it('serves a folder’s page at the folder’s address with its slash, where its links resolve', async () => {
    // The trap the slash-less address sets: relative links one folder up.
    expect(await answer(servers.nginx!.origin, '/guides/setup')).toBe(
      '→ /guides/setup/ the file guides/setup/index.html',
    );
    // The trap of Next.js's RSC folders: a server that tries the folder first.
    expect(await answer(servers.nginx!.origin, '/guides/intro')).toBe('the file guides/intro.html');
  });
});

/**
 * The README's CloudFront Function, run in a VM context of its own, in front of an S3
 * REST endpoint (s3rver) holding the export: each request's URI goes through the
 * function, and the key it names is asked of the store.
 */
describe.skipIf(!NGINX && !CI)("the README's CloudFront Function in front of S3", () => {
  let root: string;
  let nginx: RunningServer;
  let store: ObjectStore;
  let handler: (event: { request: { uri: string } }) => { uri: string };
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cloudfront-'));
    store = await startObjectStore();
    await writeTree(root, contents);
    for (const [file, content] of contents) await store.put(file, Buffer.from(content));
    nginx = await startNginx((listen) => nginxConfig({ has404Page: true }, { root, listen }));
    const context = vm.createContext({});
    vm.runInContext(await readmeBlock('js'), context);
    handler = context.handler as typeof handler;
  });
  afterAll(async () => {
    await nginx?.stop();
    await store?.stop();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  /** What S3 serves for `target` once the function has rewritten its path. */
  async function served(target: string): Promise<string> {
    const uri = handler({ request: { uri: new URL(target, 'http://viewer').pathname } }).uri;
    const response = await fetch(await store.presign(decodeURIComponent(uri.slice(1)), 60));
    return response.status === 200 ? response.text() : 'not served';
  }

  /** nginx's answer, its redirects left out (CloudFront answers with the page itself). */
  async function nginxServes(target: string): Promise<string> {
    const response = await fetch(`${nginx.origin}${target}`);
    return response.status === 200 ? response.text() : 'not served';
  }

  it.each(REQUESTS.filter((target) => !(target in CLOUDFRONT_DIFFERS)))(
    '%s: served as nginx serves it',
    async (target) => {
      expect(await served(target)).toBe(await nginxServes(target));
    },
  );

  it.each(Object.entries(CLOUDFRONT_DIFFERS))('%s: %s', async (target, why) => {
    expect(await nginxServes(target), why).not.toBe('not served');
    expect(await served(target), why).toBe('not served');
  });
});
