import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SARIF_LIMITS, writeReportFiles } from '../../src/airgap/report-files.js';
import type { Finding } from '../../src/airgap/findings.js';
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
      const uris = log.runs[0]?.results.flatMap((r) =>
        r.locations.map((l) => l.physicalLocation.artifactLocation.uri),
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

describe("the SARIF report within GitHub code scanning's limits", () => {
  interface SarifRun {
    results: { ruleId: string; level: string; message: { text: string }; locations: unknown[] }[];
    properties: Record<string, number>;
  }

  async function sarifOf(findings: Finding[]): Promise<{ run: SarifRun; json: unknown[] }> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-sarif-'));
    try {
      const files = { json: path.join(dir, 'r.json'), sarif: path.join(dir, 'r.sarif') };
      await writeReportFiles(readinessOf({ deploymentType: 'air-gapped', findings }), {
        ...files,
        sitePath: 'site',
      });
      const log = JSON.parse(await fs.readFile(files.sarif, 'utf8')) as { runs: SarifRun[] };
      const json = JSON.parse(await fs.readFile(files.json, 'utf8')) as { findings: unknown[] };
      return { run: log.runs[0] as SarifRun, json: json.findings };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  const finding = (file: string, url: string, role: 'load' | 'link'): Finding => ({
    file,
    line: 1,
    url,
    host: new URL(url).host,
    role,
    severity: role === 'load' ? 'error' : 'warning',
    via: role === 'load' ? '<img src>' : '<a href>',
    source: 'scan',
  });

  it('writes a 3,000-page site with 9 footer links as one result per link, under 25,000 results', async () => {
    const findings = Array.from({ length: 3000 }, (_, page) =>
      Array.from({ length: 9 }, (_, i) =>
        finding(`p${page}.html`, `https://social${i}.example.com/acme`, 'link'),
      ),
    ).flat();
    const { run, json } = await sarifOf(findings);
    expect(json).toHaveLength(27_000);
    expect(run.results).toHaveLength(9);
    for (const result of run.results) {
      expect(result.locations).toHaveLength(SARIF_LIMITS.locationsPerResult);
      expect(result.message.text).toMatch(/Found in 3000 places, the first 100 listed\.$/);
    }
    expect(run.properties).toEqual({
      findings: 27_000,
      findingsNotListed: 0,
      resultsNotListed: 0,
      locationsNotListed: 27_000 - 9 * SARIF_LIMITS.locationsPerResult,
    });
  });

  it('keeps at most 5,000 results, errors first, and counts the rest', async () => {
    const links = Array.from({ length: 6000 }, (_, i) =>
      finding('index.html', `https://l${i}.example.com/`, 'link'),
    );
    const loads = Array.from({ length: 3000 }, (_, i) =>
      finding('index.html', `https://cdn${i}.example.net/x.js`, 'load'),
    );
    const { run, json } = await sarifOf([...links, ...loads]);
    expect(json).toHaveLength(9000);
    expect(SARIF_LIMITS.results).toBeLessThanOrEqual(5000);
    expect(run.results).toHaveLength(SARIF_LIMITS.results);
    expect(run.results.slice(0, 3000).every((r) => r.level === 'error')).toBe(true);
    expect(run.results.slice(3000).every((r) => r.level === 'warning')).toBe(true);
    expect(run.properties).toMatchObject({
      findings: 9000,
      findingsNotListed: 9000 - SARIF_LIMITS.results,
      resultsNotListed: 9000 - SARIF_LIMITS.results,
    });
  });
});
