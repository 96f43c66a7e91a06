/**
 * The readiness check's SARIF file, validated by Microsoft's SARIF Multitool (installed
 * into tools/sarif-multitool by `npm run test:world`): the SARIF 2.1.0 schema and rules,
 * and the rules of GitHub code scanning, which reads the file `upload-sarif` sends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReadiness } from '../../src/airgap/check.js';
import { parseConfig, type ExportConfig } from '../../src/config.js';
import type { ExportRecord } from '../../src/report.js';
import { recordingReporter } from '../support/recording-reporter.js';
import { writeTree } from '../support/files.js';

const CI = process.env.CI === 'true';
const MULTITOOL = path.resolve(
  'tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool',
);
const installed = existsSync(MULTITOOL);
if (!installed && !CI)
  console.log('Skipping the SARIF validation: run node scripts/install-tools.mjs sarif-multitool.');

interface Finding {
  ruleId: string;
  level: string;
  text: string;
}

/** What the Multitool finds in `file`: errors and warnings, GitHub's rules and SARIF's. */
async function validate(file: string): Promise<Finding[]> {
  const report = path.join(path.dirname(file), `${path.basename(file)}.validation.sarif`);
  const run = spawnSync(
    MULTITOOL,
    [
      'validate',
      file,
      ...['--output', report, '--log', 'ForceOverwrite'],
      ...['--rule-kind', 'Gh;Sarif', '--level', 'Error;Warning'],
    ],
    // A .NET binary: without ICU (Debian's libicu), it needs the invariant culture.
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
    },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const log = JSON.parse(await fs.readFile(report, 'utf8')) as {
    runs: { results?: { ruleId: string; level?: string; message: { id?: string } }[] }[];
  };
  return (log.runs[0]?.results ?? []).map((result) => ({
    ruleId: result.ruleId,
    level: result.level ?? 'warning',
    text: result.message.id ?? '',
  }));
}

/**
 * A site with one finding of each rule, in files whose names a URI must escape, and one
 * URL found in two files (one result with two locations).
 */
const SITE = {
  'index.html': [
    '<!doctype html><title>Docs</title>',
    '<script src="https://analytics.example.com/a.js"></script>',
    '<img src="https://cdn.example.com/x.png">',
    '<a href="https://github.com/example/docs">GitHub</a> <a href="/missing-page">Old</a>',
  ].join('\n'),
  'guides/a b#1.html': '<!doctype html><img src="https://cdn.example.com/x.png">',
  'guides/100%.html': '<!doctype html><a href="gone">Gone</a>',
  'assets/site.css': '@import "https://fonts.example.com/inter.css";',
};

describe.skipIf(!installed && !CI)("the readiness check's SARIF file", () => {
  it('passes the SARIF Multitool: schema, SARIF rules and GitHub code scanning’s', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-sarif-'));
    const site = path.join(root, 'staging');
    await writeTree(site, SITE);
    // On the runner, the step's directory is the workspace and `path` lies in it.
    const config = parseConfig(
      {
        'api-key': 'mint_test',
        domain: 'docs.example.com',
        path: 'site',
        'deployment-type': 'air-gapped',
        'browser-check': 'false',
      },
      { workspace: process.cwd() },
    ) as ExportConfig;
    const record: ExportRecord = { command: 'export', domain: 'docs.example.com', startedAt: 0 };
    const recorded = recordingReporter();
    await checkReadiness(site, config, recorded.reporter, record, { tempDir: root }).catch(
      () => undefined, // air-gapped fails on the loads; the files are written first
    );
    const file = recorded.outputs['sarif-file'] as string;
    const sarif = JSON.parse(await fs.readFile(file, 'utf8')) as {
      runs: { results: { ruleId: string; locations: unknown[] }[] }[];
    };
    expect(sarif.runs[0]?.results.map((r) => r.locations.length).sort()).toEqual([
      1, 1, 1, 1, 1, 2,
    ]);
    expect(sarif.runs[0]?.results.map((r) => r.ruleId).sort()).toEqual([
      'broken-link',
      'broken-link',
      'outside-link',
      'outside-load',
      'outside-load',
      'outside-load',
    ]);

    // The tool has no fixed home page to name: where the action runs from varies.
    expect(await validate(file)).toEqual([
      { ruleId: 'SARIF2005', level: 'warning', text: 'Warning_ProvideToolnformationUri' },
    ]);

    // The validator itself: a file name left unescaped, and a rule without help, are errors.
    const broken = JSON.parse(await fs.readFile(file, 'utf8')) as {
      runs: {
        tool: { driver: { rules: { help?: unknown }[] } };
        results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    const run = broken.runs[0]!;
    delete run.tool.driver.rules[0]!.help;
    run.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri = 'site/a b#1.html';
    const brokenFile = path.join(root, 'broken.sarif');
    await fs.writeFile(brokenFile, JSON.stringify(broken));
    expect((await validate(brokenFile)).filter((f) => f.level === 'error')).toEqual([
      { ruleId: 'GH2012', level: 'error', text: 'Error_MissingHelp' },
      { ruleId: 'SARIF1002', level: 'error', text: 'Error_UrisMustConformToRfc3986' },
    ]);
    await fs.rm(root, { recursive: true, force: true });
  });
});
