import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request, WebSocket } from 'undici';

/** Browsers looked for, in order, when no path is given. */
const CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/google-chrome',
];

export function findBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.STATIC_EXPORT_BROWSER;
  if (configured) return existsSync(configured) ? configured : undefined;
  return CANDIDATES.find((candidate) => existsSync(candidate));
}

export interface BrowserFinding {
  url: string;
  /** `blocked`: would leave the site; `missing`: a file of the site that is not there. */
  kind: 'blocked' | 'missing';
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
}

/**
 * Loads a page of the extracted site in a headless Chromium over file:// with every
 * network request refused, and reports what the page tried to fetch outside the site
 * (and files of the site it could not find). Driven over the DevTools protocol.
 */
export async function loadOffline(
  browser: string,
  page: string,
  options: { timeoutMs?: number; settleMs?: number } = {},
): Promise<BrowserFinding[]> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const settleMs = options.settleMs ?? 750;
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'static-export-browser-'));
  const child = spawn(
    browser,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      // Nothing resolves: a request that slipped past the interception still fails.
      '--host-resolver-rules=MAP * ~NOTFOUND',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // Its own process group, so that the renderer and helper processes go with it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  try {
    const endpoint = await devtoolsEndpoint(child, timeoutMs);
    const session = await openPageSession(endpoint);
    try {
      return await inspectPage(session, pathToFileURL(page).href, timeoutMs, settleMs);
    } finally {
      session.close();
    }
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    child.stderr?.destroy();
    child.unref();
    await fs.rm(profile, { recursive: true, force: true }).catch(() => undefined);
  }
}

function devtoolsEndpoint(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error('the browser did not start in time')),
      timeoutMs,
    );
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the browser exited (${code}) before it could be driven: ${output.trim().slice(0, 300)}`,
        ),
      );
    });
  });
}

interface Session {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(listener: (message: CdpMessage) => void): void;
  close(): void;
}

async function openPageSession(browserEndpoint: string): Promise<Session> {
  const { host } = new URL(browserEndpoint);
  const list = await request(`http://${host}/json/list`);
  const targets = (await list.body.json()) as { type: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((t) => t.type === 'page');
  if (!target) throw new Error('the browser has no page to drive');
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('could not connect to the browser')), {
      once: true,
    });
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners: ((message: CdpMessage) => void)[] = [];
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as CdpMessage;
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
      return;
    }
    for (const listener of listeners) listener(message);
  });
  return {
    send(method, params = {}) {
      next += 1;
      const id = next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    on: (listener) => listeners.push(listener),
    close: () => socket.close(),
  };
}

async function inspectPage(
  session: Session,
  url: string,
  timeoutMs: number,
  settleMs: number,
): Promise<BrowserFinding[]> {
  const findings = new Map<string, BrowserFinding>();
  const requests = new Map<string, string>();
  let lastActivity = Date.now();
  let loaded = false;
  session.on((message) => {
    const params = message.params ?? {};
    if (message.method === 'Fetch.requestPaused') {
      lastActivity = Date.now();
      const requestUrl = (params.request as { url: string }).url;
      const requestId = params.requestId as string;
      if (/^(file|data|blob|about):/i.test(requestUrl)) {
        void session.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
      } else {
        findings.set(requestUrl, { url: requestUrl, kind: 'blocked' });
        void session
          .send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
          .catch(() => undefined);
      }
    } else if (message.method === 'Network.requestWillBeSent') {
      lastActivity = Date.now();
      requests.set(params.requestId as string, (params.request as { url: string }).url);
    } else if (message.method === 'Network.loadingFailed') {
      lastActivity = Date.now();
      const failedUrl = requests.get(params.requestId as string) ?? '';
      if (failedUrl.startsWith('file:') && /FILE_NOT_FOUND/.test(String(params.errorText))) {
        findings.set(failedUrl, { url: failedUrl, kind: 'missing' });
      }
    } else if (message.method === 'Page.loadEventFired') {
      loaded = true;
      lastActivity = Date.now();
    }
  });
  await session.send('Network.enable');
  await session.send('Page.enable');
  await session.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
  await session.send('Page.navigate', { url });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !(loaded && Date.now() - lastActivity >= settleMs)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [...findings.values()];
}
