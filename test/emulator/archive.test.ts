import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completedBundle, download, startTestEmulator, untarGz, unzip } from './helpers.js';
import type { TestEmulator } from './helpers.js';

const running: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.stop()));
});

async function archiveOf(options: Parameters<typeof startTestEmulator>[0] = {}, domain?: string) {
  const emulator = await startTestEmulator(options);
  running.push(emulator);
  const bundle = await completedBundle(emulator, domain);
  const response = await download(bundle.bundleUrl);
  expect(response.status).toBe(200);
  return { emulator, bundle, response, bytes: response.body };
}

/** Every href/src/url() target in the text files of the site. */
function references(files: Map<string, Buffer>): { from: string; target: string }[] {
  const found: { from: string; target: string }[] = [];
  for (const [path, body] of files) {
    if (!/\.(html|css|js|json)$/.test(path)) continue;
    const text = body.toString('utf8');
    for (const m of text.matchAll(/(?:href|src)="([^"]*)"|url\(([^)]*)\)/g)) {
      found.push({ from: path, target: (m[1] ?? m[2] ?? '').trim() });
    }
  }
  return found;
}

describe('generated archive', () => {
  it('is a static site with pageCount HTML pages and only relative links', async () => {
    const { emulator, bundle, bytes } = await archiveOf({ pageCount: 24 });
    const files = await untarGz(bytes);
    const html = [...files.keys()].filter((path) => path.endsWith('.html'));
    expect(html).toHaveLength(24);
    expect(html).toContain('index.html');
    expect(html.some((path) => path.startsWith('guides/'))).toBe(true);
    expect(html.some((path) => path.startsWith('reference/'))).toBe(true);
    const view = emulator.exportJobs.get(bundle.jobId)?.view;
    expect(view?.pageCount).toBe(html.length);

    const png = files.get('assets/logo.png');
    expect(png?.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(files.get('assets/style.css')?.length).toBeGreaterThan(100);
    expect(files.get('assets/app.js')?.toString()).toContain('search-index.json');
    const index = JSON.parse(files.get('search-index.json')?.toString() ?? '[]') as unknown[];
    expect(index).toHaveLength(24);

    const refs = references(files);
    expect(refs.length).toBeGreaterThan(24 * 5);
    for (const { from, target } of refs) {
      expect(target, `${from} -> ${target}`).not.toMatch(/^([a-z]+:|\/)/i);
      const resolved = posix.normalize(posix.join(posix.dirname(from), target));
      expect(files.has(resolved), `${from} -> ${target} resolves to ${resolved}`).toBe(true);
    }
    for (const [path, body] of files) {
      if (/\.(html|css|js|json)$/.test(path)) {
        expect(body.toString(), path).not.toMatch(/https?:|\/\/[a-z0-9]|www\./i);
      }
    }
  });

  it('has deterministic bytes and ETag for the same parameters', async () => {
    const first = await archiveOf({ pageCount: 12 });
    const second = await archiveOf({ pageCount: 12 });
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(second.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    const otherDomain = await archiveOf({ pageCount: 12 }, 'other.example.com');
    expect(otherDomain.bytes.equals(first.bytes)).toBe(false);
  });

  it('builds zip archives with yazl', async () => {
    const { bundle, response, bytes } = await archiveOf({ archiveFormat: 'zip', pageCount: 9 });
    expect(bundle.bundleUrl).toMatch(/\.zip\?/);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const files = await unzip(bytes);
    expect([...files.keys()].filter((path) => path.endsWith('.html'))).toHaveLength(9);
    expect(files.get('assets/logo.png')?.[1]).toBe(0x50);
  });

  it('pads to about archiveSizeBytes with incompressible files, cached between runs', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'emulator-archive-cache-'));
    try {
      const target = 3 * 1024 * 1024;
      const first = await archiveOf({ archiveSizeBytes: target, cacheDir });
      expect(Math.abs(first.bytes.length - target) / target).toBeLessThan(0.02);
      expect(first.bundle.sizeBytes).toBe(first.bytes.length);
      const files = await untarGz(first.bytes);
      expect([...files.keys()].filter((path) => path.endsWith('.html'))).toHaveLength(24);
      expect([...files.keys()].some((path) => path.startsWith('assets/media/'))).toBe(true);
      const cached = await readdir(cacheDir);
      expect(cached.filter((name) => name.endsWith('.tar.gz'))).toHaveLength(1);
      const second = await archiveOf({ archiveSizeBytes: target, cacheDir });
      expect(second.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
      expect((await readdir(cacheDir)).sort()).toEqual(cached.sort());
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('spreads the size over fileCount extra files (zip too)', async () => {
    const target = 2 * 1024 * 1024;
    const { bytes } = await archiveOf({
      archiveFormat: 'zip',
      archiveSizeBytes: target,
      fileCount: 300,
    });
    expect(Math.abs(bytes.length - target) / target).toBeLessThan(0.02);
    const files = await unzip(bytes);
    const chunks = [...files.keys()].filter((path) => path.startsWith('assets/chunks/'));
    expect(chunks).toHaveLength(300);
    expect([...files.keys()].filter((path) => path.endsWith('.html'))).toHaveLength(24);
  });

  it('adds small extra files for fileCount alone', async () => {
    const { bytes } = await archiveOf({ fileCount: 50 });
    const files = await untarGz(bytes);
    expect([...files.keys()].filter((path) => path.startsWith('assets/chunks/'))).toHaveLength(50);
  });

  it('serves what the archiveFor hook returns: a buffer or a file path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emulator-hook-'));
    try {
      const hostilePath = join(dir, 'hostile.zip');
      await writeFile(hostilePath, Buffer.from('PK\u0003\u0004 not really a zip'));
      const seen: string[] = [];
      const { emulator } = await archiveOf({
        archiveFor: (job) => {
          seen.push(job.domain);
          if (job.domain === 'file.example.com') return hostilePath;
          if (job.domain === 'buffer.example.com') return Buffer.from('raw bytes');
          return undefined;
        },
      });
      const fromFile = await download(
        (await completedBundle(emulator, 'file.example.com')).bundleUrl,
      );
      expect(fromFile.body.toString()).toBe('PK\u0003\u0004 not really a zip');
      expect(fromFile.headers.get('content-type')).toBe('application/zip');
      const fromBuffer = await download(
        (await completedBundle(emulator, 'buffer.example.com')).bundleUrl,
      );
      expect(fromBuffer.body.toString()).toBe('raw bytes');
      expect(fromBuffer.headers.get('content-type')).toBe('application/octet-stream');
      expect(seen).toEqual(['docs.example.com', 'file.example.com', 'buffer.example.com']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
