import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarOf } from '../support/archives.js';
import { type Harness, startHarness } from '../support/in-process.js';

/**
 * The annotations of a step as GitHub shows them: 10 of each level, the first ones
 * printed; the 11th error and later ones are in the log only.
 */
const SHOWN_PER_LEVEL = 10;

function annotations(stdout: string, level: 'error' | 'warning'): string[] {
  return stdout.split('\n').filter((line) => line.startsWith(`::${level}`));
}

const HOSTS = Array.from({ length: 25 }, (_, i) => `cdn${String(i).padStart(2, '0')}.example.net`);

let harness: Harness;
beforeAll(async () => {
  const archive = await tarOf([
    {
      name: 'index.html',
      content: `<!doctype html><title>Docs</title>\n${HOSTS.map((h) => `<script src="https://${h}/x.js"></script>`).join('\n')}`,
    },
  ]);
  harness = await startHarness({ archiveFor: () => archive });
});
afterAll(() => harness.stop());

describe('annotations GitHub shows for a failed step', () => {
  it('the error that fails the step is among the 10 error annotations GitHub shows', async () => {
    const run = await harness.run({
      domain: 'docs.example.com',
      'deployment-type': 'air-gapped',
      'browser-check': 'false',
    });
    expect(run.code).toBe(1);
    const errors = annotations(run.stdout, 'error');
    const shown = errors.slice(0, SHOWN_PER_LEVEL);
    expect(shown.some((line) => line.includes('not ready for an air-gapped deployment'))).toBe(
      true,
    );
    // Every host is still named by the annotations shown.
    for (const host of HOSTS) expect(shown.join('\n')).toContain(host);
  });

  it('broken links that fail the step leave room for the failure too', async () => {
    const archive = await tarOf([
      {
        name: 'index.html',
        content: Array.from({ length: 30 }, (_, i) => `<a href="/missing-${i}">x</a>`).join('\n'),
      },
    ]);
    const own = await startHarness({ archiveFor: () => archive });
    try {
      const run = await own.run({ domain: 'docs.example.com', 'broken-links': 'fail' });
      expect(run.code).toBe(1);
      const shown = annotations(run.stdout, 'error').slice(0, SHOWN_PER_LEVEL);
      expect(shown.some((line) => line.includes('not ready for deployment'))).toBe(true);
    } finally {
      await own.stop();
    }
  });
});

describe('annotations for a path outside the workspace', () => {
  it('name the page of a broken link in the message, where the file was a dead link', async () => {
    const archive = await tarOf([
      { name: 'index.html', content: '<a href="/guides/intro">Intro</a>' },
      { name: 'guides/setup.html', content: '<p>Setup</p>\n<a href="/gone">Gone</a>' },
    ]);
    const own = await startHarness({ archiveFor: () => archive });
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-outside-'));
    try {
      const site = path.join(outside, 'site');
      const run = await own.run({ domain: 'docs.example.com', path: site });
      expect(run.code, run.stdout).toBe(0);
      const broken = annotations(run.stdout, 'warning').filter((line) =>
        line.includes('Broken link'),
      );
      // No file= the runner would turn into a dead link: the message says where.
      expect(broken).toEqual([
        `::warning title=Broken internal link::${path.join(site, 'guides', 'setup.html')}:2:1: Broken link /gone: no file of the export serves /gone.`,
        `::warning title=Broken internal link::${path.join(site, 'index.html')}:1:1: Broken link /guides/intro: no file of the export serves /guides/intro.`,
      ]);
    } finally {
      await own.stop();
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});
