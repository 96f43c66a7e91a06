import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportFiles } from '../../src/airgap/report-files.js';
import { readinessOf } from '../support/readiness.js';

// Names as an archive may hold them: a space, a percent sign before hex digits, a hash.
const FILES = ['guides/50%41 off.html', 'guides/a#b.html', 'guides/intro.html'];

const readiness = readinessOf({
  deploymentType: 'air-gapped',
  scanned: 3,
  pages: 3,
  findings: FILES.map((file) => ({
    file,
    line: 1,
    url: 'https://cdn.example.net/x.js',
    host: 'cdn.example.net',
    role: 'load' as const,
    severity: 'error' as const,
    via: '<script src>',
    source: 'scan' as const,
  })),
  links: { checked: 0, brokenCount: 0, broken: [], severity: 'warning' },
});

describe('the SARIF report', () => {
  it('names each file by a URI reference that reads back as its path', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-sarif-'));
    try {
      const sarif = path.join(dir, 'r.sarif');
      await writeReportFiles(readiness, {
        json: path.join(dir, 'r.json'),
        sarif,
        sitePath: 'site',
      });
      const log = JSON.parse(await fs.readFile(sarif, 'utf8')) as {
        runs: {
          results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
        }[];
      };
      const uris = log.runs[0]?.results.map(
        (r) => r.locations[0]?.physicalLocation.artifactLocation.uri as string,
      );
      // What a SARIF reader does: resolve against the checkout, then decode the path.
      const read = uris?.map((uri) => {
        const url = new URL(uri, 'file:///checkout/');
        return `${decodeURIComponent(url.pathname.slice('/checkout/'.length))}${url.hash}`;
      });
      expect(read).toEqual(FILES.map((file) => `site/${file}`));
      for (const uri of uris ?? []) expect(uri).not.toMatch(/\s/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
