import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintPage } from '../../src/changes/fingerprint.js';
import { startPageFingerprinter } from '../../src/changes/fingerprinter.js';
import { CancelledError } from '../../src/errors.js';
import {
  type EarlierPage,
  PageFingerprintJob,
  type WrittenPage,
} from '../../src/changes/page-fingerprints.js';
import { buildDocsSite, newBuildId, samplePages } from '../support/docs-site.js';

/**
 * Page fingerprints are made while the site is extracted: each page as soon as it is
 * written, in a worker thread when the build ships one, then whatever is missing once the
 * site is complete. Whichever way they are made, they are the fingerprints of the bytes
 * the site ends up with.
 */

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** The worker from its TypeScript source; dist/ ships it built (tested in the smoke layer). */
const WORKER_FROM_SOURCE = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '../support/fingerprint-worker-from-src.mjs',
);

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'page-fingerprints-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Writes a site under `dir` and lists its files as the extraction would. */
async function writeSite(dir: string, files: Map<string, string>): Promise<WrittenPage[]> {
  const written: WrittenPage[] = [];
  for (const [name, content] of files) {
    const file = path.join(dir, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    written.push({ path: name, size: Buffer.byteLength(content), sha256: sha256(content) });
  }
  return written.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const site = (seed: string, pages = samplePages(12, 2)) =>
  buildDocsSite({ pages, buildId: newBuildId(seed), sidebarSize: 5 });

/** What each page's fingerprint is, computed directly from the bytes on disk. */
async function expected(dir: string, files: WrittenPage[]) {
  const byPath = new Map<string, ReturnType<typeof fingerprintPage>>();
  for (const file of files.filter((f) => f.path.endsWith('.html'))) {
    byPath.set(file.path, fingerprintPage(await fs.readFile(path.join(dir, file.path))));
  }
  return byPath;
}

function earlierOf(files: WrittenPage[], byPath: Map<string, EarlierPage['page']>) {
  const earlier = new Map<string, EarlierPage>();
  for (const file of files) {
    const page = byPath.get(file.path);
    if (page) earlier.set(file.path, { sha256: file.sha256, page });
  }
  return earlier;
}

describe('PageFingerprintJob', () => {
  it('fingerprints every page and only pages, as fingerprintPage does', async () => {
    const files = await writeSite(root, site('a'));
    const job = new PageFingerprintJob(root);
    for (const file of files) job.add(file);
    const result = job.finish(files);
    expect(result.byPath).toEqual(await expected(root, files));
    expect(result.byPath.size).toBe(12);
    expect([...result.byPath.keys()].every((p) => p.endsWith('.html'))).toBe(true);
    expect(result).toMatchObject({ carriedOver: 0, unreadable: [] });
  });

  it('finishes pages it was never told were written, reading them then', async () => {
    const files = await writeSite(root, site('a'));
    const result = new PageFingerprintJob(root).finish(files);
    expect(result.byPath).toEqual(await expected(root, files));
  });

  it('keeps the earlier fingerprint of a page with the same bytes, without reading it', async () => {
    const files = await writeSite(root, site('a'));
    const stored = new Map([...(await expected(root, files))].map(([p, f]) => [p, { ...f }]));
    // Gone from disk: only the earlier export's record can answer.
    await fs.rm(path.join(root, 'index.html'));
    const result = new PageFingerprintJob(root, earlierOf(files, stored)).finish(files);
    expect(result.byPath.get('index.html')).toBe(stored.get('index.html'));
    expect(result).toMatchObject({ carriedOver: 12, unreadable: [] });
  });

  it('keeps the earlier fingerprint of a rebuilt page whose markup is unchanged, and rescans an edited one', async () => {
    const pages = samplePages(12, 2);
    const before = await writeSite(path.join(root, 'before'), site('a', pages));
    const stored = await expected(path.join(root, 'before'), before);
    const edited = pages.map((p, i) => (i === 3 ? { ...p, body: ['Rewritten.'] } : p));
    const after = await writeSite(path.join(root, 'after'), site('b', edited));
    const result = new PageFingerprintJob(
      path.join(root, 'after'),
      earlierOf(before, stored),
    ).finish(after);
    expect(result.carriedOver).toBe(11);
    expect(result.byPath).toEqual(await expected(path.join(root, 'after'), after));
    expect(result.byPath.get('concepts/topic-3.html')?.content).not.toBe(
      stored.get('concepts/topic-3.html')?.content,
    );
  });

  it('gives a page carried over without a layout (an earlier form, dropped) the layout it has now', async () => {
    const pages = samplePages(12, 2);
    const before = await writeSite(path.join(root, 'before'), site('a', pages));
    const stored = await expected(path.join(root, 'before'), before);
    const withoutLayouts = new Map(
      [...stored].map(([file, { layout: _, ...page }]) => [file, page]),
    );
    const afterDir = path.join(root, 'after');
    const after = await writeSite(afterDir, site('b', pages));
    const now = await expected(afterDir, after);
    // As the pages are written (from their bytes), and once the site is complete (from disk).
    for (const viaTriage of [true, false]) {
      const job = new PageFingerprintJob(afterDir, earlierOf(before, withoutLayouts));
      if (viaTriage) {
        for (const file of after) {
          const rest = job.triage(file, await fs.readFile(path.join(afterDir, file.path)));
          expect(rest).toBeUndefined();
        }
      }
      const result = job.finish(after);
      expect(result.carriedOver).toBe(12);
      for (const [file, page] of result.byPath) {
        expect(page.layout, file).toMatch(/^2;/);
        expect(page).toEqual(now.get(file));
      }
    }
  });

  it('fingerprints anew a page the earlier export listed without a fingerprint, and lists every file', async () => {
    const files = await writeSite(root, site('a'));
    await fs.writeFile(path.join(root, 'logo.svg'), '<svg/>');
    const all = [...files, { path: 'logo.svg', size: 6, sha256: sha256('<svg/>') }];
    // The earlier export could not read this page: same bytes, but no record to carry over.
    const earlier = new Map<string, EarlierPage>([
      ['index.html', { sha256: files.find((f) => f.path === 'index.html')?.sha256 ?? '' }],
    ]);
    const job = new PageFingerprintJob(root, earlier);
    for (const file of all) {
      const rest = job.triage(file);
      if (rest) job.add(rest);
    }
    const result = job.finish(all);
    expect(result.byPath).toEqual(await expected(root, files));
    expect(result.carriedOver).toBe(0);
    expect(result.pageFiles.map((f) => f.path)).toEqual(
      files.filter((f) => f.path.endsWith('.html')).map((f) => f.path),
    );
    expect(result.otherFiles.map((f) => f.path)).toEqual([
      ...files.filter((f) => !f.path.endsWith('.html')).map((f) => f.path),
      'logo.svg',
    ]);
  });

  it('looks again at a page replaced after it was added', async () => {
    const files = await writeSite(root, site('a'));
    const job = new PageFingerprintJob(root);
    for (const file of files) job.add(file);
    // A later archive entry of the same name: other bytes, other SHA-256.
    const replaced =
      '<html><head><title>Replaced</title></head><body><main>New</main></body></html>';
    await fs.writeFile(path.join(root, 'index.html'), replaced);
    const final = files.map((f) =>
      f.path === 'index.html'
        ? { path: f.path, size: replaced.length, sha256: sha256(replaced) }
        : f,
    );
    expect(job.finish(final).byPath.get('index.html')?.title).toBe('Replaced');
  });

  it('lists a page that cannot be read, without a fingerprint, and fingerprints the others', async () => {
    const files = await writeSite(root, site('a'));
    await fs.rm(path.join(root, 'reference/topic-1.html'));
    const result = new PageFingerprintJob(root).finish(files);
    expect(result.unreadable).toEqual(['reference/topic-1.html: ENOENT']);
    expect(result.byPath.has('reference/topic-1.html')).toBe(false);
    expect(result.byPath.size).toBe(11);
  });
});

describe('startPageFingerprinter', () => {
  it('fingerprints in a worker thread what the job makes in this one', async () => {
    const files = await writeSite(root, site('a'));
    const fingerprinter = startPageFingerprinter(root, undefined, {
      workerFile: WORKER_FROM_SOURCE,
      batchPages: 4,
    });
    expect(fingerprinter.where).toBe('inline');
    for (const file of files) fingerprinter.written(file);
    expect(fingerprinter.where).toBe('worker');
    const result = await fingerprinter.finish(files);
    expect(result.byPath).toEqual(new PageFingerprintJob(root).finish(files).byPath);
    expect(result.byPath.size).toBe(12);
  });

  it('scans the batches the worker has not reached here, once the site is written', async () => {
    const files = await writeSite(root, site('a'));
    const fingerprinter = startPageFingerprinter(root, undefined, {
      workerFile: WORKER_FROM_SOURCE,
      batchPages: 1,
    });
    for (const file of files) fingerprinter.written(file);
    const result = await fingerprinter.finish(files);
    // The worker holds two batches at a time: the other ten wait for whichever thread is free.
    expect(fingerprinter.scannedBeside).toBeGreaterThan(0);
    expect(fingerprinter.scannedBeside).toBeLessThanOrEqual(10);
    expect(result.byPath).toEqual(await expected(root, files));
    expect(result.byPath.size).toBe(12);
  });

  it('stops waiting for the worker when the run is cancelled', async () => {
    const files = await writeSite(root, site('a'));
    const silent = path.join(root, 'silent-worker.mjs');
    await fs.writeFile(
      silent,
      'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => {});\n',
    );
    const fingerprinter = startPageFingerprinter(root, undefined, {
      workerFile: silent,
      batchPages: 4,
    });
    for (const file of files) fingerprinter.written(file);
    const controller = new AbortController();
    const finished = fingerprinter.finish(files, controller.signal);
    setTimeout(() => controller.abort(new CancelledError('Cancelled (SIGINT).', 'SIGINT')), 50);
    await expect(finished).rejects.toThrow('Cancelled (SIGINT).');
  });

  it('carries the earlier fingerprints into the worker', async () => {
    const files = await writeSite(root, site('a'));
    const stored = await expected(root, files);
    const fingerprinter = startPageFingerprinter(root, earlierOf(files, stored), {
      workerFile: WORKER_FROM_SOURCE,
      batchPages: 4,
    });
    for (const file of files.slice(0, 5)) fingerprinter.written(file);
    const result = await fingerprinter.finish(files);
    expect(result.carriedOver).toBe(12);
    expect(result.byPath).toEqual(stored);
  });

  /** Two builds, the second with one page edited: the earlier fingerprints and the new files. */
  async function rebuild() {
    const pages = samplePages(12, 2);
    const before = await writeSite(path.join(root, 'before'), site('a', pages));
    const stored = await expected(path.join(root, 'before'), before);
    const edited = pages.map((p, i) => (i === 3 ? { ...p, body: ['Rewritten.'] } : p));
    const dir = path.join(root, 'after');
    const after = await writeSite(dir, site('b', edited));
    const written = async (fingerprinter: ReturnType<typeof startPageFingerprinter>) => {
      for (const file of after) {
        fingerprinter.written(file, await fs.readFile(path.join(dir, file.path)));
      }
    };
    return { dir, after, earlier: earlierOf(before, stored), written };
  }

  it('settles pages of unchanged markup from the bytes written, and scans the edited one in the worker', async () => {
    const { dir, after, earlier, written } = await rebuild();
    const fingerprinter = startPageFingerprinter(dir, earlier, {
      workerFile: WORKER_FROM_SOURCE,
      batchPages: 1,
    });
    await written(fingerprinter);
    expect(fingerprinter.where).toBe('worker');
    const result = await fingerprinter.finish(after);
    expect(result.carriedOver).toBe(11);
    expect(result.byPath).toEqual(new PageFingerprintJob(dir, earlier).finish(after).byPath);
    expect(result.byPath).toEqual(await expected(dir, after));
  });

  it('starts no thread when every page keeps its earlier fingerprint', async () => {
    const files = await writeSite(root, site('a'));
    const stored = await expected(root, files);
    const { result, debug } = await withBrokenWorker(files, {
      earlier: earlierOf(files, stored),
      withBytes: true,
    });
    expect(result).toMatchObject({ carriedOver: 12, unreadable: [] });
    expect(debug).toEqual([]);
  });

  it('scans fewer pages than a batch here, without starting a thread', async () => {
    const files = await writeSite(root, site('a'));
    const { result, debug } = await withBrokenWorker(files, { batchPages: 13 });
    expect(result.byPath).toEqual(await expected(root, files));
    expect(debug).toEqual([]);
  });

  it('runs in this thread when there is no worker file', async () => {
    const files = await writeSite(root, site('a'));
    const fingerprinter = startPageFingerprinter(root, undefined, {
      workerFile: path.join(root, 'missing-worker.js'),
    });
    expect(fingerprinter.where).toBe('inline');
    for (const file of files) fingerprinter.written(file);
    expect((await fingerprinter.finish(files)).byPath).toEqual(await expected(root, files));
  });

  interface BrokenWorkerRun {
    earlier?: Map<string, EarlierPage>;
    /** Hand each page's bytes over as the extraction does. */
    withBytes?: boolean;
    batchPages?: number;
  }

  /** Fingerprints `files` with a worker that throws as soon as it starts; returns the debug log. */
  async function withBrokenWorker(
    files: WrittenPage[],
    { earlier, withBytes = false, batchPages = 4 }: BrokenWorkerRun = {},
  ) {
    const broken = path.join(root, 'broken-worker.mjs');
    await fs.writeFile(broken, 'throw new Error("no worker today");\n');
    const debug: string[] = [];
    const fingerprinter = startPageFingerprinter(root, earlier, {
      workerFile: broken,
      batchPages,
      debug: (line) => debug.push(line),
    });
    for (const file of files) {
      const bytes = withBytes ? await fs.readFile(path.join(root, file.path)) : undefined;
      fingerprinter.written(file, bytes);
    }
    return { result: await fingerprinter.finish(files), debug };
  }

  it('starts no thread for a site without pages', async () => {
    const { result, debug } = await withBrokenWorker(
      await writeSite(root, new Map([['data.json', '{}']])),
    );
    expect(result.byPath.size).toBe(0);
    expect(debug).toEqual([]);
  });

  it('falls back to this thread, and says so, when the worker fails', async () => {
    const files = await writeSite(root, site('a'));
    const { result, debug } = await withBrokenWorker(files);
    expect(result.byPath).toEqual(await expected(root, files));
    expect(debug.join('\n')).toMatch(/fingerprint worker failed \(Error: no worker today\)/);
  });
});
