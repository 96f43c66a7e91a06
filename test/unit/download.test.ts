import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { downloadBundle } from '../../src/deliver/download.js';
import { DownloadError } from '../../src/errors.js';

/**
 * A kept archive (extract: false) is checked against the storage's ETag when that is a
 * plain MD5, as S3 gives for a single-part upload: bytes that changed on the way fail the
 * run instead of being kept and published with their own SHA-256.
 */

const BYTES = Buffer.from('an archive as the storage holds it\n'.repeat(64));
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

let server: http.Server;
let origin: string;
let root: string;
const dispatcher = new Agent();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = Buffer.from(BYTES);
    // /corrupted: one byte flipped on the way, the ETag still that of the stored bytes.
    if (req.url === '/corrupted') body[100] = (body[100] as number) ^ 0x20;
    // /kms: encrypted with a KMS key, S3's ETag is not the MD5 of the bytes.
    const kms = req.url === '/kms' ? { 'x-amz-server-side-encryption': 'aws:kms' } : {};
    // /overlong: chunked (no Content-Length), with more bytes than the API announced.
    if (req.url === '/overlong') {
      res.writeHead(200, { 'content-type': 'application/x-tar' });
      res.write(body);
      res.end(Buffer.alloc(100));
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/x-tar',
      'content-length': String(body.length),
      etag: req.url === '/kms' ? `"${md5(Buffer.from('another digest'))}"` : `"${md5(BYTES)}"`,
      ...kms,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'download-'));
});
afterAll(async () => {
  await dispatcher.close();
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(root, { recursive: true, force: true });
});

function download(route: string) {
  const source = { url: `${origin}${route}`, sizeBytes: BYTES.length };
  return downloadBundle({
    source,
    refresh: async () => source,
    file: path.join(root, `${route.slice(1)}.tar`),
    dispatcher,
    clock: systemClock,
    random: Math.random,
    idleTimeoutMs: 5_000,
  });
}

describe('the storage ETag of a kept archive', () => {
  it('is checked and reported when the bytes match it', async () => {
    const result = await download('/intact');
    expect(result.etagVerified).toBe(true);
    expect(result.size).toBe(BYTES.length);
  });

  it('fails the download, naming the corruption, when the bytes do not match it', async () => {
    const failure = await download('/corrupted').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DownloadError);
    expect((failure as Error).message).toBe(
      `The downloaded archive (${BYTES.length} bytes) does not match the storage's checksum (ETag ${md5(BYTES)}, got MD5 ${md5(Buffer.from(BYTES).fill((BYTES[100] as number) ^ 0x20, 100, 101))}): the transfer was corrupted.`,
    );
  });
});

describe('a chunked answer without an ETag, cut off, from a storage that does not resume', () => {
  it('is started over from its first byte, not taken for a changed bundle', async () => {
    let requests = 0;
    const flaky = http.createServer((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/x-tar' });
      // Cut four times, then whole: a Range is never honoured.
      if (requests <= 4) {
        res.write(BYTES.subarray(0, 1000));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.end(BYTES);
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const events: string[] = [];
    let refreshed = 0;
    const source = {
      url: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/chunked`,
      sizeBytes: BYTES.length,
    };
    try {
      const result = await downloadBundle({
        source,
        refresh: async () => {
          refreshed += 1;
          return source;
        },
        file: path.join(root, 'chunked.tar'),
        dispatcher,
        clock: systemClock,
        random: () => 0,
        idleTimeoutMs: 5_000,
        onEvent: (message) => events.push(message),
      });
      expect(result.size).toBe(BYTES.length);
      expect(refreshed).toBe(0);
      expect(events.filter((e) => e.includes('changed'))).toEqual([]);
      expect(
        events.filter((e) => e.startsWith('The storage gave the bundle no ETag')),
      ).toHaveLength(4);
    } finally {
      await new Promise((resolve) => flaky.close(resolve));
    }
  });
});

describe('an ETag that is not the MD5 of the bytes', () => {
  it('is not checked for an object encrypted with a KMS key, as S3 documents', async () => {
    const result = await download('/kms');
    expect(result.etagVerified).toBe(false);
    expect(result.size).toBe(BYTES.length);
  });
});

describe('a chunked answer longer than the API announced', () => {
  it('is refused at once, saying so', async () => {
    const events: string[] = [];
    const source = { url: `${origin}/overlong`, sizeBytes: BYTES.length };
    const failure = await downloadBundle({
      source,
      refresh: async () => source,
      file: path.join(root, 'overlong.tar'),
      dispatcher,
      clock: systemClock,
      random: Math.random,
      idleTimeoutMs: 5_000,
      onEvent: (message) => events.push(message),
    }).catch((err: unknown) => err);
    expect((failure as Error).message).toBe(
      `The storage sent more than the ${BYTES.length} bytes the API announced: refusing the archive.`,
    );
    expect(events).toEqual([]);
  });
});
