/**
 * `npm start`: the main job, end to end. Starts the emulator of the admin API, runs
 * dist/index.js exactly as the GitHub runner would (INPUT_* variables, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files), and prints its log, its outputs and its job summary. The
 * site lands in ./static-export/.
 *
 *   npm start                 export docs.example.com (tar.gz)
 *   npm start -- --zip        the same, with a zip bundle
 *   npm start -- agent        an agent job that opens a pull request
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../emulator/index.js';
import { ROOT, runAction } from './runner.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    zip: { type: 'boolean', default: false },
    domain: { type: 'string', default: 'docs.example.com' },
    path: { type: 'string', default: 'static-export' },
  },
});
const command = positionals[0] === 'agent' ? 'agent' : 'export';

// Everything but the site itself lives here and is removed at the end: the runner's files
// (GITHUB_OUTPUT holds a live bundle link), the Helm values, the emulator's cache.
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'static-export-demo-'));
process.env.TMPDIR = scratch;
const emulator = await startEmulator({
  cacheDir: path.join(scratch, 'emulator-cache'),
  jobDurationMs: 6000,
  pageCount: 24,
  agentDurationMs: 5000,
  archiveFormat: values.zip ? 'zip' : 'tar.gz',
  log: (line) => console.log(`\x1b[2m${line}\x1b[0m`),
});
console.log(
  `Emulator of the admin API at ${emulator.baseUrl} (object store at ${emulator.storeUrl})\n`,
);

const inputs: Record<string, string> =
  command === 'agent'
    ? {
        'api-key': emulator.keys.write,
        'base-url': emulator.baseUrl,
        command: 'agent',
        'project-id': 'demo-project',
        prompt: 'Document the new --json flag of the CLI\nAdd an example to the reference page.',
      }
    : {
        'api-key': emulator.keys.write,
        'base-url': emulator.baseUrl,
        domain: values.domain,
        path: values.path,
        'helm-values-file': path.join(scratch, 'static-export-values.yaml'),
        'release-version': 'demo',
      };

console.log(`$ node dist/index.js   # ${command}, inputs: ${Object.keys(inputs).join(', ')}\n`);
try {
  const run = await runAction({
    inputs,
    workspace: ROOT,
    onStdout: (text) => process.stdout.write(text),
  });
  process.stdout.write(run.stderr);
  console.log(`\n--- outputs (GITHUB_OUTPUT) ---`);
  for (const [name, value] of Object.entries(run.outputs))
    console.log(`${name.padEnd(18)} ${value}`);
  console.log(`\n--- job summary (GITHUB_STEP_SUMMARY) ---\n${run.summary}`);
  console.log(`exit code ${run.code} after ${(run.durationMs / 1000).toFixed(1)}s`);
  if (command === 'export' && run.code === 0)
    console.log(`The site is in ${run.outputs.path}; open index.html in a browser.`);
  process.exitCode = run.code ?? 1;
} finally {
  await emulator.stop();
  await fs.rm(scratch, { recursive: true, force: true });
}
