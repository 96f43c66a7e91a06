import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { fromBuffer } from 'yauzl';
import type { Entry as ZipEntry, ZipFile } from 'yauzl';
import { startEmulator } from '../../emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../emulator/index.js';

export interface TestEmulator extends Emulator {
  /** Every line the emulator logged. */
  logLines: string[];
  /** Removes the emulator's private cache directory too. */
  stop(): Promise<void>;
}

/** An emulator with captured log lines and its own cache directory. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const logLines: string[] = [];
  const cacheDir = options.cacheDir ?? (await mkdtemp(join(tmpdir(), 'emulator-test-cache-')));
  const emulator = await startEmulator({
    log: (line) => logLines.push(line),
    cacheDir,
    ...options,
  });
  const stop = emulator.stop;
  return Object.assign(emulator, {
    logLines,
    stop: async () => {
      await stop();
      if (options.cacheDir === undefined) await rm(cacheDir, { recursive: true, force: true });
    },
  });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

type KeyChoice = 'write' | 'read' | 'none' | string;

/** One admin API call with the write key unless told otherwise. */
export async function call(
  emulator: Emulator,
  method: string,
  path: string,
  options: {
    body?: unknown;
    key?: KeyChoice;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const key = options.key ?? 'write';
  const headers: Record<string, string> = { ...options.headers };
  if (key === 'write' || key === 'read') headers.authorization = `Bearer ${emulator.keys[key]}`;
  else if (key !== 'none') headers.authorization = key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${emulator.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export interface ExportJobJson {
  jobId: string;
  status: string;
  progress?: number;
  pageCount?: number;
  error: string | null;
  bundleUrl?: string;
  sizeBytes?: number;
  expiresAt?: string;
  [field: string]: unknown;
}

export interface BundleJson {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
}

export async function startExport(
  emulator: Emulator,
  domain = 'docs.example.com',
): Promise<ExportJobJson> {
  const response = await call(emulator, 'POST', '/v1/static-export/jobs', { body: { domain } });
  if (response.status !== 202) throw new Error(`start failed: ${response.status} ${response.text}`);
  return response.json as ExportJobJson;
}

/** Starts an export, jumps the clock past its end and returns a bundle link. */
export async function completedBundle(
  emulator: Emulator,
  domain = 'docs.example.com',
): Promise<BundleJson> {
  const job = await startExport(emulator, domain);
  emulator.clock.advance(60_000);
  const response = await call(emulator, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`);
  if (response.status !== 200)
    throw new Error(`bundle failed: ${response.status} ${response.text}`);
  return response.json as BundleJson;
}

export async function download(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(url, { method, headers });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True when the server closed the connection; false when we gave up waiting. */
  closedByServer: boolean;
}

/**
 * A GET over a bare socket, reading until the server closes or goes quiet for idleMs, so the
 * exact bytes of broken responses (cut, stalled, wrong Content-Length) can be inspected.
 */
export function rawGet(url: string, idleMs = 400): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) {
        resolve({ status: 0, headers: {}, body: Buffer.alloc(0), closedByServer });
        return;
      }
      const [statusLine = '', ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: all.subarray(split + 4),
        closedByServer,
      });
    };
    socket.setTimeout(idleMs, () => finish(false));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (chunks.length > 0 ? finish(true) : reject(error)));
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`,
    );
  });
}

/** Every file of a .tar.gz archive, by path. */
export async function untarGz(archive: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const tar = extract();
  const done = (async () => {
    for await (const entry of tar) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file') files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  tar.end(gunzipSync(archive));
  await done;
  return files;
}

/** Every file of a .zip archive, by path. */
export function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(archive, { lazyEntries: true }, (error, zip: ZipFile) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: ZipEntry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
