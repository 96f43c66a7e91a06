import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadArtifact } from '../../src/github.js';
import {
  type ArtifactService,
  CONFLICT_ERROR,
  QUOTA_ERROR,
  startArtifactService,
} from '../support/artifact-service.js';
import { unzip } from '../emulator/helpers.js';

/**
 * The artifact adapter of src/github.ts, over the real @actions/artifact, against a local
 * service that answers the calls the library makes. The library reads its configuration
 * from the environment and logs to stdout, so the cases run one after the other.
 */

const ENV = ['ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'GITHUB_SERVER_URL'] as const;

let service: ArtifactService;
let site: string;
let stdout: string;
beforeEach(async () => {
  service = await startArtifactService();
  for (const name of ENV) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(service.env)) vi.stubEnv(name, value);
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-artifact-'));
  await fs.mkdir(path.join(site, 'guide'));
  await fs.writeFile(path.join(site, 'index.html'), '<h1>Home</h1>');
  await fs.writeFile(path.join(site, 'guide', 'start.html'), '<h1>Start</h1>');
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await service.stop();
});

const files = () => [path.join(site, 'index.html'), path.join(site, 'guide', 'start.html')];

describe('the artifact adapter over @actions/artifact', () => {
  it('uploads the files as one zip, paths relative to the root, and returns the id', async () => {
    const uploaded = await uploadArtifact('docs-site', site, files());
    expect(service.calls).toEqual([
      'CreateArtifact',
      'blob block',
      'blob blocklist',
      'FinalizeArtifact',
    ]);
    expect(uploaded).toEqual({ id: 1 });
    const zipped = await unzip(service.artifacts[0]?.zip as Buffer);
    expect([...zipped.keys()].sort()).toEqual(['guide/start.html', 'index.html']);
    expect(zipped.get('index.html')?.toString()).toBe('<h1>Home</h1>');
  });

  it('surfaces the 409 of a name already uploaded in the words the export looks for', async () => {
    await uploadArtifact('docs-site', site, files());
    await expect(uploadArtifact('docs-site', site, files())).rejects.toThrow(CONFLICT_ERROR);
  });

  it('surfaces a used-up storage quota', async () => {
    await expect(uploadArtifact('quota', site, files())).rejects.toThrow(QUOTA_ERROR);
  });

  it('skips the upload on GitHub Enterprise Server with a notice', async () => {
    vi.stubEnv('GITHUB_SERVER_URL', 'https://ghes.example.com');
    expect(await uploadArtifact('docs-site', site, files())).toEqual({});
    expect(stdout).toMatch(
      /^::notice::Workflow artifacts v2\+ are not supported on GitHub Enterprise Server/m,
    );
    expect(service.calls).toEqual([]);
  });
});
