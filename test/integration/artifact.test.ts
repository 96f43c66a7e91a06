import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_NAME } from '../../src/deliver/manifest.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLines, exists, type Harness, listTree, startHarness } from '../support/in-process.js';
import { CONFLICT_ERROR, QUOTA_ERROR } from '../support/artifact-service.js';

/**
 * artifact-name: what the export hands the artifact adapter, and what it makes of the
 * answer (the errors are those test/adapter/artifact-upload.test.ts gets from the real
 * library). The adapter itself, src/github.ts over @actions/artifact, is tested there.
 */

const DOMAIN = 'docs.example.com';
const SITE = { domain: DOMAIN, path: 'site', 'artifact-name': 'docs-site' };
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ pageCount: 3, jobDurationMs: 1000 });
});
afterAll(async () => {
  await harness.stop();
});

describe('artifact-name', () => {
  it('uploads exactly the extracted site and sets artifact-id to the id the service gave', async () => {
    const run = await harness.run(SITE, {
      uploadArtifact: async (name, root, files) => {
        expect(name).toBe('docs-site');
        // The site and its manifest, which a later run can compare against.
        expect(files.map((file) => path.relative(root, file)).sort()).toEqual(
          [...(await listTree(root)), MANIFEST_NAME].sort(),
        );
        return { id: 4711 };
      },
    });
    expect(run.code, run.stdout).toBe(0);
    const site = run.outputs.path as string;
    expect(site).toBe(path.join(run.workspace, 'site'));
    expect((await listTree(site)).filter((f) => f.endsWith('.html'))).toHaveLength(3);
    expect(run.outputs['artifact-id']).toBe('4711');
    expect(run.stdout).toMatch(/^Uploaded \d+ file\(s\) as artifact docs-site \(id 4711\)\.$/m);
    expect(run.stdout).toContain('::group::Uploading the artifact docs-site');
    expect(run.summary).toContain('| Artifact | id 4711 |');
  });

  it('hands the adapter the root and every file of the site, as absolute paths', async () => {
    const run = await harness.run(SITE);
    expect(run.code, run.stdout).toBe(0);
    const site = run.outputs.path as string;
    expect(run.uploads).toEqual([
      {
        name: 'docs-site',
        root: site,
        files: expect.arrayContaining((await listTree(site)).map((f) => path.join(site, f))),
      },
    ]);
    expect(run.uploads[0]?.files).toHaveLength((await listTree(site)).length + 1);
  });

  it('uploads the verified archive itself with extract: false', async () => {
    const run = await harness.run({ ...SITE, path: 'bundle', extract: 'false' });
    expect(run.code, run.stdout).toBe(0);
    const archive = run.outputs['archive-path'] as string;
    expect(archive).toBe(path.join(run.workspace, 'bundle', `${DOMAIN}.tar.gz`));
    expect(run.uploads).toEqual([
      { name: 'docs-site', root: path.join(run.workspace, 'bundle'), files: [archive] },
    ]);
    expect(run.outputs['artifact-id']).toBe('1');
  });

  it('fails with one error line naming the artifact upload when the service refuses it', async () => {
    const run = await harness.run(SITE, {
      uploadArtifact: async () => {
        throw new Error(QUOTA_ERROR);
      },
    });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toHaveLength(1);
    expect(errorLines(run)[0]).toMatch(
      /^::error::Uploading the export as workflow artifact docs-site failed: Failed to CreateArtifact: Artifact storage quota has been hit\. .* The new export was already in place in \/.+, and stays there\.$/,
    );
    expect(errorLines(run)[0]).not.toMatch(/already exists in this workflow run/);
    expect(run.outputs['artifact-id']).toBeUndefined();
    // The export itself went through: the site is in place and the summary says what failed.
    expect(await exists(path.join(run.outputs.path as string, 'index.html'))).toBe(true);
    expect(run.summary).toContain(
      '**Error:** Uploading the export as workflow artifact docs-site failed',
    );
  });

  it('writes the Helm values before the upload: a failed upload leaves them matching path, and says so', async () => {
    const run = await harness.run(
      { ...SITE, 'helm-values-file': 'values.yaml' },
      {
        uploadArtifact: async () => {
          throw new Error(QUOTA_ERROR);
        },
      },
    );
    expect(run.code).toBe(1);
    const values = path.join(run.workspace, 'values.yaml');
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Uploading the export as workflow artifact docs-site failed: .* The new export was already in place in /.+, and stays there, its Helm values in ${values}\\.$`,
        ),
      ),
    ]);
    expect(run.outputs['helm-values-file']).toBe(values);
    expect(await readFile(values, 'utf8')).toMatch(
      new RegExp(`^# Static export ${run.outputs['job-id']} of docs\\.example\\.com`),
    );
  });

  it('explains a name another job of the run already uploaded', async () => {
    const run = await harness.run(SITE, {
      uploadArtifact: async () => {
        throw new Error(CONFLICT_ERROR);
      },
    });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        /^::error::Uploading the export as workflow artifact docs-site failed: .*\(409\) Conflict: an artifact with this name already exists on the workflow run\. An artifact named docs-site already exists in this workflow run: give each job its own artifact-name/,
      ),
    ]);
  });
});
