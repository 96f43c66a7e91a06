import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorLines, type Harness, startHarness, visibleText } from '../support/in-process.js';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { row, runCase } from './support.js';

/**
 * Invalid inputs, across every input: each fails before any request, with an error line
 * that names the input. Every case runs with HTTP_PROXY/HTTPS_PROXY pointing at a trap
 * that forwards nothing (set for this file's process: the action reads them there), so a
 * request to any host (the emulator or elsewhere) would be seen, and with a base-url path
 * of its own, so a request reaching the emulator would be attributed to its case.
 */

const EXPORT = { domain: 'docs.example.com' };
const AGENT = { command: 'agent', 'project-id': 'demo-project', prompt: 'Fix the typos' };

interface BadInput {
  name: string;
  inputs: Record<string, string>;
  /** The input the error line must name. */
  input: string;
  /** Files the workspace holds before the run. */
  files?: Record<string, string>;
  bug?: string;
}

const CASES: BadInput[] = [
  { name: 'api-key empty', inputs: { ...EXPORT, 'api-key': '' }, input: 'api-key' },
  { name: 'api-key only spaces', inputs: { ...EXPORT, 'api-key': '   ' }, input: 'api-key' },
  {
    name: 'api-key with a space inside',
    inputs: { ...EXPORT, 'api-key': 'mint_secretpart one' },
    input: 'api-key',
  },
  {
    name: 'api-key with a newline inside',
    inputs: { ...EXPORT, 'api-key': 'mint_secretpart\nmint_other' },
    input: 'api-key',
  },
  {
    name: 'api-key without a prefix',
    inputs: { ...EXPORT, 'api-key': 'secretpartwithoutprefix' },
    input: 'api-key',
  },
  {
    name: 'base-url over http to a remote host',
    inputs: { ...EXPORT, 'base-url': 'http://api.example.com' },
    input: 'base-url',
  },
  {
    name: 'base-url with credentials',
    inputs: { ...EXPORT, 'base-url': 'https://user:pw@api.example.com' },
    input: 'base-url',
  },
  {
    name: 'base-url not a URL',
    inputs: { ...EXPORT, 'base-url': 'api.example.com' },
    input: 'base-url',
  },
  {
    name: 'base-url with another scheme',
    inputs: { ...EXPORT, 'base-url': 'ftp://api.example.com' },
    input: 'base-url',
  },
  {
    name: 'base-url with a query string',
    inputs: { ...EXPORT, 'base-url': 'https://api.example.com/?x=1' },
    input: 'base-url',
  },
  { name: 'command unknown', inputs: { ...EXPORT, command: 'deploy' }, input: 'command' },
  { name: 'domain missing', inputs: {}, input: 'domain' },
  { name: 'domain with a scheme', inputs: { domain: 'https://docs.example.com' }, input: 'domain' },
  { name: 'domain with a path', inputs: { domain: 'docs.example.com/guides' }, input: 'domain' },
  { name: 'domain with a port', inputs: { domain: 'docs.example.com:8443' }, input: 'domain' },
  { name: 'domain with a space', inputs: { domain: 'docs example.com' }, input: 'domain' },
  {
    name: 'domain with an underscore',
    inputs: { domain: 'docs_site.example.com' },
    input: 'domain',
  },
  { name: 'domain ending with a dot', inputs: { domain: 'docs.example.com.' }, input: 'domain' },
  { name: 'job-id with a slash', inputs: { ...EXPORT, 'job-id': '../se_1' }, input: 'job-id' },
  {
    name: 'docs-version with a control character',
    inputs: { ...EXPORT, 'docs-version': 'v1\u0007' },
    input: 'docs-version',
  },
  {
    name: 'export-paths with whitespace inside',
    inputs: { ...EXPORT, 'export-paths': '/getting started' },
    input: 'export-paths',
  },
  { name: 'download not a boolean', inputs: { ...EXPORT, download: 'yes' }, input: 'download' },
  { name: 'extract not a boolean', inputs: { ...EXPORT, extract: '0' }, input: 'extract' },
  { name: 'path the workspace itself', inputs: { ...EXPORT, path: '.' }, input: 'path' },
  { name: 'path a parent of the workspace', inputs: { ...EXPORT, path: '..' }, input: 'path' },
  {
    name: 'path an existing file',
    inputs: { ...EXPORT, path: 'notes.txt' },
    input: 'path',
    files: { 'notes.txt': 'not a directory' },
  },
  {
    name: 'artifact-name with a slash',
    inputs: { ...EXPORT, 'artifact-name': 'docs/site' },
    input: 'artifact-name',
  },
  { name: 'timeout in words', inputs: { ...EXPORT, timeout: 'ten minutes' }, input: 'timeout' },
  { name: 'timeout zero', inputs: { ...EXPORT, timeout: '0' }, input: 'timeout' },
  { name: 'timeout negative', inputs: { ...EXPORT, timeout: '-5m' }, input: 'timeout' },
  { name: 'timeout beyond 72h', inputs: { ...EXPORT, timeout: '100h' }, input: 'timeout' },
  {
    name: 'poll-interval below 0.5s',
    inputs: { ...EXPORT, 'poll-interval': '100ms' },
    input: 'poll-interval',
  },
  {
    name: 'request-timeout not a duration',
    inputs: { ...EXPORT, 'request-timeout': 'fast' },
    input: 'request-timeout',
  },
  {
    name: 'request-timeout below 0.1s',
    inputs: { ...EXPORT, 'request-timeout': '10ms' },
    input: 'request-timeout',
  },
  {
    name: 'helm-values-file naming the workspace itself',
    inputs: { ...EXPORT, 'helm-values-file': '.' },
    input: 'helm-values-file',
  },
  {
    name: 'release-version with a newline',
    inputs: { ...EXPORT, 'helm-values-file': 'v.yaml', 'release-version': 'v1\nv2' },
    input: 'release-version',
  },
  {
    name: 'deployment-type unknown',
    inputs: { ...EXPORT, 'deployment-type': 'on-prem' },
    input: 'deployment-type',
  },
  {
    name: 'mask-bundle-url not a boolean',
    inputs: { ...EXPORT, 'mask-bundle-url': 'on' },
    input: 'mask-bundle-url',
  },
  {
    name: 'max-extract-size not a size',
    inputs: { ...EXPORT, 'max-extract-size': 'huge' },
    input: 'max-extract-size',
  },
  {
    name: 'max-extract-size zero',
    inputs: { ...EXPORT, 'max-extract-size': '0' },
    input: 'max-extract-size',
  },
  {
    name: 'max-extract-files zero',
    inputs: { ...EXPORT, 'max-extract-files': '0' },
    input: 'max-extract-files',
  },
  {
    name: 'max-extract-files not a whole number',
    inputs: { ...EXPORT, 'max-extract-files': '1e6' },
    input: 'max-extract-files',
  },
  {
    name: 'allowed-hosts with a URL',
    inputs: { ...EXPORT, 'allowed-hosts': 'https://cdn.example.com/' },
    input: 'allowed-hosts',
  },
  {
    name: 'browser-check unknown',
    inputs: { ...EXPORT, 'browser-check': 'always' },
    input: 'browser-check',
  },
  {
    name: 'project-id missing for agent',
    inputs: { command: 'agent', prompt: 'x' },
    input: 'project-id',
  },
  {
    name: 'project-id with a slash',
    inputs: { ...AGENT, 'project-id': 'org/project' },
    input: 'project-id',
  },
  {
    name: 'prompt missing for agent',
    inputs: { command: 'agent', 'project-id': 'demo-project' },
    input: 'prompt',
  },
  { name: 'prompt only whitespace', inputs: { ...AGENT, prompt: ' \n\t ' }, input: 'prompt' },
  {
    name: 'prompt over 100000 characters',
    inputs: { ...AGENT, prompt: 'x'.repeat(100_001) },
    input: 'prompt',
  },
  { name: 'wait not a boolean', inputs: { ...AGENT, wait: 'sometimes' }, input: 'wait' },
];

let harness: Harness;
let trap: ForwardProxy;
beforeAll(async () => {
  harness = await startHarness();
  trap = await startForwardProxy({ trap: true });
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy']) vi.stubEnv(name, trap.url);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await trap.stop();
  await harness.stop();
});

describe.concurrent('invalid inputs', () => {
  for (const [index, bad] of CASES.entries()) {
    (bad.bug ? it.skip : it)(
      bad.name,
      row(`exit 1, error names ${bad.input}, no request`, bad.bug),
      async () => {
        const prefix = `/case-${index}`;
        const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-inputs-'));
        for (const [name, content] of Object.entries(bad.files ?? {})) {
          await fs.writeFile(path.join(workspace, name), content);
        }
        const run = await runCase(
          harness,
          { 'base-url': `${harness.emulator.baseUrl}${prefix}`, ...bad.inputs },
          { workspace },
        );
        expect(run.code, run.stdout).toBe(1);
        const named = new RegExp(`^::error::(Invalid input )?${bad.input}\\b`);
        expect(
          errorLines(run).some((line) => named.test(line)),
          run.stdout,
        ).toBe(true);
        // Nothing was sent: not through the proxy, not to the emulator.
        expect(trap.seen).toEqual([]);
        expect(harness.emulator.requests.filter((r) => r.path.startsWith(prefix))).toEqual([]);
        expect(run.outputs).toEqual({});
        // A malformed key is still a secret: the refusal does not show it.
        const key = bad.inputs['api-key']?.trim();
        if (key) expect(visibleText(run)).not.toContain('secretpart');
        // Nothing was written in the workspace.
        expect((await fs.readdir(workspace)).sort()).toEqual(Object.keys(bad.files ?? {}).sort());
      },
    );
  }
});
