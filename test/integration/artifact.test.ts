import { MANIFEST_NAME } from '../../src/deliver/manifest.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResultsService, startResultsService } from '../../emulator/results-service.js';
import type { ActionRun } from '../../scripts/runner.js';
import { unzip } from '../emulator/helpers.js';
import {
  errorLines,
  exists,
  type Harness,
  listTree,
  startHarness,
  visibleText,
} from '../support/action.js';

const DOMAIN = 'docs.example.com';
const SITE = { domain: DOMAIN, path: 'site', 'artifact-name': 'docs-site' };

let harness: Harness;
const services: ResultsService[] = [];
beforeAll(async () => {
  harness = await startHarness({ pageCount: 3, jobDurationMs: 1000 });
});
afterAll(async () => {
  await Promise.all([harness.stop(), ...services.map((service) => service.stop())]);
});

/** A results service of its own per test, so artifact names never collide across tests. */
async function resultsService(): Promise<ResultsService> {
  const service = await startResultsService();
  services.push(service);
  return service;
}

/** Runs the action as a job of `service`'s workflow run, the runtime token kept out of sight. */
async function runWith(
  service: ResultsService,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<ActionRun> {
  const run = await harness.run(inputs, { env: { ...service.env, ...env } });
  expect(visibleText(run)).not.toContain(service.runtimeToken);
  return run;
}

const noDebug = (run: ActionRun) =>
  run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::debug::'))
    .join('\n');

describe('artifact-name, end to end against the results service emulator', () => {
  it('uploads exactly the extracted site and sets artifact-id to the id the service gave', async () => {
    const service = await resultsService();
    const run = await runWith(service, SITE);
    expect(run.code, noDebug(run)).toBe(0);
    expect(service.artifacts).toHaveLength(1);
    const [artifact] = service.artifacts;
    expect(artifact).toMatchObject({ name: 'docs-site', finalized: true, jobId: service.jobId });
    expect(run.outputs['artifact-id']).toBe(artifact?.id);
    expect(run.stdout).toContain(`as artifact docs-site (id ${artifact?.id})`);
    expect(run.summary).toContain(`id ${artifact?.id}`);

    const site = run.outputs.path as string;
    expect(site).toBe(path.join(run.workspace, 'site'));
    const files = await listTree(site);
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(3);
    const zipped = await unzip(artifact?.zip as Buffer);
    // The site and its manifest, which a later run can compare against.
    expect([...zipped.keys()].sort()).toEqual([...files, MANIFEST_NAME].sort());
    for (const file of files) {
      expect(zipped.get(file)?.equals(await fs.readFile(path.join(site, file))), file).toBe(true);
    }
    // Only the Twirp calls carry the runtime token; the blob calls use the signed URL.
    expect(service.requests.map((r) => [r.route, r.status, r.hasAuthorization])).toEqual([
      ['CreateArtifact', 200, true],
      ['blob.block', 201, false],
      ['blob.blocklist', 201, false],
      ['FinalizeArtifact', 200, true],
    ]);
  });

  it('uploads the verified archive itself with extract: false', async () => {
    const service = await resultsService();
    const run = await runWith(service, { ...SITE, path: 'bundle', extract: 'false' });
    expect(run.code, noDebug(run)).toBe(0);
    const archive = run.outputs['archive-path'] as string;
    expect(archive).toBe(path.join(run.workspace, 'bundle', `${DOMAIN}.tar.gz`));
    const zipped = await unzip(service.artifacts[0]?.zip as Buffer);
    expect([...zipped.keys()]).toEqual([`${DOMAIN}.tar.gz`]);
    const bytes = zipped.get(`${DOMAIN}.tar.gz`) as Buffer;
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(run.outputs.sha256);
    expect(bytes.equals(await fs.readFile(archive))).toBe(true);
    expect(run.outputs['artifact-id']).toBe(service.artifacts[0]?.id);
  });

  it('skips the upload on GHES with a notice, and still succeeds', async () => {
    const service = await resultsService();
    const run = await runWith(service, SITE, { GITHUB_SERVER_URL: 'https://ghes.example.com' });
    expect(run.code, noDebug(run)).toBe(0);
    expect(run.stdout).toMatch(
      /^::notice::Workflow artifacts v2\+ are not supported on GitHub Enterprise Server/m,
    );
    expect(run.outputs['artifact-id']).toBeUndefined();
    expect(errorLines(run)).toEqual([]);
    expect(run.stdout).not.toContain('::warning::');
    expect(service.requests).toEqual([]);
    expect(await listTree(run.outputs.path as string)).toContain('index.html');
  });

  it('fails with one error line naming the artifact upload when the service refuses it', async () => {
    const service = await resultsService();
    service.fail({
      route: 'CreateArtifact',
      code: 'permission_denied',
      msg: 'insufficient usage to create artifact',
    });
    const run = await runWith(service, SITE);
    expect(run.code).toBe(1);
    expect(errorLines(run)).toHaveLength(1);
    expect(errorLines(run)[0]).toMatch(
      /^::error::Uploading the export as workflow artifact docs-site failed: Failed to CreateArtifact: Artifact storage quota has been hit\. .* The export itself is in \/.+$/,
    );
    expect(run.outputs['artifact-id']).toBeUndefined();
    expect(service.artifacts).toEqual([]);
    // The export itself went through: the site is in place and the summary says what failed.
    expect(await exists(path.join(run.outputs.path as string, 'index.html'))).toBe(true);
    expect(run.summary).toContain(
      '**Error:** Uploading the export as workflow artifact docs-site failed',
    );
  });

  it('fails like GitHub when another job of the run already uploaded the same name', async () => {
    const service = await resultsService();
    const first = await runWith(service, SITE);
    expect(first.code, noDebug(first)).toBe(0);
    const otherJob = service.mintToken({ jobId: 'matrix-job-2' });
    const second = await runWith(service, SITE, { ACTIONS_RUNTIME_TOKEN: otherJob });
    expect(visibleText(second)).not.toContain(otherJob);
    expect(second.code).toBe(1);
    expect(errorLines(second)).toEqual([
      expect.stringMatching(
        /^::error::Uploading the export as workflow artifact docs-site failed: .*\(409\) Conflict: an artifact with this name already exists on the workflow run\. An artifact named docs-site already exists in this workflow run: give each job its own artifact-name/,
      ),
    ]);
    expect(service.artifacts.map((a) => [a.name, a.jobId, a.finalized])).toEqual([
      ['docs-site', service.jobId, true],
    ]);
  });
});
