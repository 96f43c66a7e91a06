import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_DEPTH } from '../../src/airgap/html.js';
import { type ScanOptions, type ScanResult, scanSite } from '../../src/airgap/scan.js';
import { SiteTree } from '../../src/airgap/site-tree.js';
import { LocalFileError } from '../../src/errors.js';
import { imageInFrames } from '../support/nested-frames.js';

/**
 * A large site is parsed on worker threads. Whatever reads a file, the findings must be
 * those of reading every file in order on one thread: same order, same first examples.
 */

let root: string;

/** A page with everything the scan keeps per file: loads, links, broken links, script URLs. */
function page(index: number): string {
  const related = index % 5 === 0 ? `/guides/missing-${index}` : `/guides/page-${(index + 1) % 40}`;
  return `<!DOCTYPE html>
<html><head>
<link rel="stylesheet" href="/assets/style.css">
${index % 7 === 3 ? `<script src="https://cdn-${index % 3}.example.net/sdk.js"></script>` : ''}
<link rel="canonical" href="https://docs.example.com/guides/page-${index}">
</head><body>
<a href="${related}">related</a> <a href="/guides/page-1">one</a> <a href="/guides/nested">nested</a> <a href="/guides/page-${index}.html">self</a>
<a href="https://github.com/example/docs/page-${index}">source</a>
<img src="https://images.example.org/${index}.png">
<script>const api = "https://api-${index % 4}.example.io/v1"; fetch("https://beacon.example.com/p?${index}");</script>
${index % 9 === 4 ? imageInFrames(MAX_FRAME_DEPTH + 1, 'https://framed.example.com/x.png') : ''}
</body></html>
`;
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-threads-'));
  await fs.mkdir(path.join(root, 'guides', 'nested'), { recursive: true });
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  // A directory beside guides/page-1.html: the directory trap is counted too.
  await fs.mkdir(path.join(root, 'guides', 'page-1'), { recursive: true });
  await fs.writeFile(
    path.join(root, 'guides', 'page-1', 'rsc.txt'),
    '0:["$","a",{"href":"https://rsc.example.com/x"}]\n',
  );
  await fs.writeFile(path.join(root, 'guides', 'nested', 'index.html'), page(99));
  await fs.writeFile(
    path.join(root, 'assets', 'style.css'),
    '@import url("https://fonts.example.com/css");\n',
  );
  await fs.writeFile(
    path.join(root, 'assets', 'app.js'),
    'fetch("https://telemetry.example.com/e");\n',
  );
  for (let i = 0; i < 40; i += 1)
    await fs.writeFile(path.join(root, 'guides', `page-${i}.html`), page(i));
  await fs.writeFile(path.join(root, 'index.html'), page(1000));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** 41 pages, a stylesheet, a script and a flight payload. */
const FILES_READ = 45;
const options = { allowedHosts: ['github.com'], external: true, links: true };
/** The worker from its source; dist/ runs its bundle (test/smoke). */
const entry = { file: fileURLToPath(new URL('../support/scan-worker.mjs', import.meta.url)) };

function plain(result: ScanResult) {
  return { ...result, unconfirmed: [...result.unconfirmed] };
}

async function scan(extra: Partial<ScanOptions> = {}) {
  const debug: string[] = [];
  const result = await scanSite(await SiteTree.read(root), {
    ...options,
    debug: (message) => debug.push(message),
    ...extra,
  });
  return { result, debug };
}

describe('the readiness scan on worker threads', () => {
  it('finds exactly what reading on the calling thread finds, in the same order', async () => {
    const here = await scan({ threads: { count: 0, fromSiteBytes: 0 } });
    // A site under the threshold is read on the calling thread alone.
    const small = await scan({ threads: { count: 2, fromSiteBytes: 10 * 1024 * 1024, entry } });
    const workers = await scan({ threads: { count: 2, fromSiteBytes: 0, entry } });
    expect(here.result.external.length).toBeGreaterThan(20);
    expect(here.result.links.brokenCount).toBe(11);
    expect(here.result.unconfirmed.size).toBe(4);
    expect(here.result.unreadFrames).toEqual({
      count: 4,
      first: { file: 'guides/page-13.html', line: 11 },
    });
    expect(here.result.rules.directoryTrap.count).toBeGreaterThan(0);
    expect(plain(small.result)).toEqual(plain(here.result));
    expect(small.debug).toEqual([]);
    expect(plain(workers.result)).toEqual(plain(here.result));
    expect(here.debug).toEqual([]);
    // Every file read, by the calling thread and the workers together.
    expect(workers.debug).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Readiness scan: ${FILES_READ} file\\(s\\) read on 3 threads \\(\\d+ on the main one\\)\\.$`,
        ),
      ),
    ]);
  });

  it('reads the rest on the calling thread when a worker dies, and says so in debug', async () => {
    const here = await scan({ threads: { count: 0, fromSiteBytes: 0 } });
    const dying = path.join(root, '..', `${path.basename(root)}-dying-worker.mjs`);
    // Answers one file with nonsense, then the thread ends with an error.
    await fs.writeFile(
      dying,
      `import { parentPort } from 'node:worker_threads';
parentPort.once('message', () => { throw new Error('out of memory (simulated)'); });`,
    );
    try {
      const failed = await scan({
        threads: { count: 2, fromSiteBytes: 0, entry: { file: dying } },
      });
      expect(plain(failed.result)).toEqual(plain(here.result));
      expect(failed.debug).toEqual([
        'Readiness scan: a worker thread failed (out of memory (simulated)); the main thread read the files it held.',
      ]);
    } finally {
      await fs.rm(dying, { force: true });
    }
  });

  it('reads on the calling thread when the worker script cannot start', async () => {
    const here = await scan({ threads: { count: 0, fromSiteBytes: 0 } });
    const missing = path.join(root, 'no-such-worker.mjs');
    const failed = await scan({
      threads: { count: 1, fromSiteBytes: 0, entry: { file: missing } },
    });
    expect(plain(failed.result)).toEqual(plain(here.result));
    expect(failed.debug).toEqual([expect.stringContaining('a worker thread failed')]);
  });

  it.each([
    ['on the calling thread', { count: 0, fromSiteBytes: 0 }],
    ['on a worker thread', { count: 2, fromSiteBytes: 0, entry }],
  ])('names a page that cannot be read %s, with what to do', async (_, threads) => {
    const tree = await SiteTree.read(root);
    const gone = path.join(root, 'guides', 'page-7.html');
    // Listed, then removed before it is read (another process cleaning up, say).
    await fs.rename(gone, `${gone}.away`);
    try {
      const scanning = scanSite(tree, { ...options, threads });
      await expect(scanning).rejects.toBeInstanceOf(LocalFileError);
      await expect(scanning).rejects.toMatchObject({
        code: 'ENOENT',
        path: gone,
        message: expect.stringContaining(`Could not read the extracted file ${gone}`),
      });
    } finally {
      await fs.rename(`${gone}.away`, gone);
    }
  });

  it('stops the workers and says why when the run is cancelled', async () => {
    const controller = new AbortController();
    const scanning = scanSite(await SiteTree.read(root), {
      ...options,
      threads: { count: 2, fromSiteBytes: 0, entry },
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled by the test'));
    await expect(scanning).rejects.toThrow('cancelled by the test');
  });

  it('stops in the middle of a page read in pieces when the run is cancelled', async () => {
    // One page too large to be read whole: the only file, so no check between files.
    const big = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-scan-big-'));
    try {
      await fs.writeFile(
        path.join(big, 'index.html'),
        `<p>${'<a href="/x">x</a> '.repeat(500_000)}</p>`,
      );
      const controller = new AbortController();
      const scanning = scanSite(await SiteTree.read(big), {
        ...options,
        threads: { count: 0, fromSiteBytes: 0 },
        signal: controller.signal,
      });
      // Once the page is open: its pieces come from the disk, each after an await.
      setImmediate(() => controller.abort(new Error('cancelled by the test')));
      await expect(scanning).rejects.toThrow('cancelled by the test');
    } finally {
      await fs.rm(big, { recursive: true, force: true });
    }
  });
});
