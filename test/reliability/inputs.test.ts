import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLines, type Harness, startHarness } from '../support/action.js';
import { DEBUG } from './support.js';

/**
 * Invalid inputs, across every input: each fails before any request, with an error line
 * that names the input. The emulator counts requests to prove none was sent.
 */

const EXPORT = { domain: 'docs.example.com' };
const AGENT = { command: 'agent', 'project-id': 'demo-project', prompt: 'Fix the typos' };

const CASES: [string, Record<string, string>, string][] = [
  ['api-key empty', { ...EXPORT, 'api-key': '' }, 'api-key'],
  ['api-key with spaces', { ...EXPORT, 'api-key': 'mint_abc def' }, 'api-key'],
  ['api-key without a prefix', { ...EXPORT, 'api-key': 'abcdef0123456789' }, 'api-key'],
  [
    'base-url over http to a remote host',
    { ...EXPORT, 'base-url': 'http://api.example.com' },
    'base-url',
  ],
  [
    'base-url with credentials',
    { ...EXPORT, 'base-url': 'https://user:pw@api.example.com' },
    'base-url',
  ],
  ['base-url not a URL', { ...EXPORT, 'base-url': 'api.example.com' }, 'base-url'],
  [
    'base-url with a query string',
    { ...EXPORT, 'base-url': 'https://api.example.com/?x=1' },
    'base-url',
  ],
  ['command unknown', { ...EXPORT, command: 'deploy' }, 'command'],
  ['domain missing', {}, 'domain'],
  ['domain with a scheme', { domain: 'https://docs.example.com' }, 'domain'],
  ['domain with a path', { domain: 'docs.example.com/guides' }, 'domain'],
  ['domain with a port', { domain: 'docs.example.com:8443' }, 'domain'],
  ['domain with a space', { domain: 'docs example.com' }, 'domain'],
  ['domain with an underscore', { domain: 'docs_site.example.com' }, 'domain'],
  ['job-id with a slash', { ...EXPORT, 'job-id': '../se_1' }, 'job-id'],
  [
    'docs-version with a control character',
    { ...EXPORT, 'docs-version': 'v1\u0007' },
    'docs-version',
  ],
  [
    'export-paths with whitespace inside',
    { ...EXPORT, 'export-paths': '/getting started' },
    'export-paths',
  ],
  ['download not a boolean', { ...EXPORT, download: 'yes' }, 'download'],
  ['extract not a boolean', { ...EXPORT, extract: '0' }, 'extract'],
  ['path the workspace itself', { ...EXPORT, path: '.' }, 'path'],
  ['path a parent of the workspace', { ...EXPORT, path: '..' }, 'path'],
  ['artifact-name with a slash', { ...EXPORT, 'artifact-name': 'docs/site' }, 'artifact-name'],
  ['timeout in words', { ...EXPORT, timeout: 'ten minutes' }, 'timeout'],
  ['timeout zero', { ...EXPORT, timeout: '0' }, 'timeout'],
  ['timeout beyond 72h', { ...EXPORT, timeout: '100h' }, 'timeout'],
  ['poll-interval below 0.5s', { ...EXPORT, 'poll-interval': '100ms' }, 'poll-interval'],
  ['request-timeout not a duration', { ...EXPORT, 'request-timeout': 'fast' }, 'request-timeout'],
  [
    'release-version with a newline',
    { ...EXPORT, 'helm-values-file': 'v.yaml', 'release-version': 'v1\nv2' },
    'release-version',
  ],
  ['deployment-type unknown', { ...EXPORT, 'deployment-type': 'on-prem' }, 'deployment-type'],
  ['mask-bundle-url not a boolean', { ...EXPORT, 'mask-bundle-url': 'on' }, 'mask-bundle-url'],
  ['max-extract-size not a size', { ...EXPORT, 'max-extract-size': 'huge' }, 'max-extract-size'],
  ['max-extract-files zero', { ...EXPORT, 'max-extract-files': '0' }, 'max-extract-files'],
  [
    'allowed-hosts with a URL',
    { ...EXPORT, 'allowed-hosts': 'https://cdn.example.com/' },
    'allowed-hosts',
  ],
  ['browser-check unknown', { ...EXPORT, 'browser-check': 'always' }, 'browser-check'],
  ['project-id missing for agent', { command: 'agent', prompt: 'x' }, 'project-id'],
  ['project-id with a slash', { ...AGENT, 'project-id': 'org/project' }, 'project-id'],
  ['prompt missing for agent', { command: 'agent', 'project-id': 'demo-project' }, 'prompt'],
  ['prompt only whitespace', { ...AGENT, prompt: ' \n\t ' }, 'prompt'],
  ['prompt over 100000 characters', { ...AGENT, prompt: 'x'.repeat(100_001) }, 'prompt'],
  ['wait not a boolean', { ...AGENT, wait: 'sometimes' }, 'wait'],
];

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  // No case may have reached the API or the storage.
  expect(harness.emulator.requests).toEqual([]);
  await harness.stop();
});

describe.concurrent('invalid inputs', () => {
  for (const [name, inputs, input] of CASES) {
    it(name, async ({ task }) => {
      task.meta.expected = `exit 1 naming ${input}, no request`;
      const run = await harness.run(inputs, { env: DEBUG });
      expect(run.code).toBe(1);
      const lines = errorLines(run);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(
        lines.some((line) => line.startsWith(`::error::Invalid input ${input}: `)),
        run.stdout,
      ).toBe(true);
      expect(run.outputFile).toBe('');
    });
  }
});
