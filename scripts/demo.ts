/**
 * `npm start`: the main job, end to end. Starts the emulator of the admin API, runs
 * dist/index.js exactly as the GitHub runner would (INPUT_* variables, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files), and shows its log the way GitHub's log view does, then its
 * outputs and its job summary. The site lands in ./static-export/. Its arguments: USAGE.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../emulator/index.js';
import { withoutQuery } from '../src/net.js';
import { ignoreClosedPipe, signalExitCode } from '../src/signals.js';
import { colorsEnabled } from '../src/terminal.js';
import { renderGitHubLog, renderSummaryText } from './github-log.js';
import { ROOT, runAction } from './runner.js';

const USAGE = `Usage: npm start [-- [agent] [--zip] [--expand] [--raw]]

  npm start                    export docs.example.com (tar.gz) into ./static-export/
  npm start -- --zip           the same, with a zip bundle
  npm start -- agent           an agent job that opens a pull request
  npm start -- --expand        unfold the log groups
  npm start -- --raw           what the runner reads: workflow commands, emulator lines
`;

function parseDemoArgs() {
  try {
    const parsed = parseArgs({
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h', default: false },
        zip: { type: 'boolean', default: false },
        raw: { type: 'boolean', default: false },
        expand: { type: 'boolean', default: false },
        domain: { type: 'string', default: 'docs.example.com' },
        path: { type: 'string', default: 'static-export' },
        'job-duration': { type: 'string', default: '6' },
      },
    });
    const [first, ...rest] = parsed.positionals;
    if (rest.length > 0 || (first !== undefined && first !== 'agent' && first !== 'export')) {
      throw new Error(`unknown demo "${parsed.positionals.join(' ')}" (agent or export)`);
    }
    return { command: first === 'agent' ? 'agent' : 'export', values: parsed.values };
  } catch (err) {
    // A typo must neither run the other demo nor end in a stack trace.
    const message = err instanceof Error ? err.message.replace(/\. To specify .*$/s, '') : err;
    process.stderr.write(`npm start: ${String(message)}\nRun \`npm start -- --help\` for usage.\n`);
    process.exit(2);
  }
}

const { command, values } = parseDemoArgs();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const raw = values.raw;
const color = colorsEnabled(process.env, process.stdout.isTTY === true);
const bold = (text: string) => (color ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[0m` : text);
const seconds = Number(values['job-duration']) * 1000;

// Everything but the site itself lives here and is removed at the end: the runner's files
// (GITHUB_OUTPUT holds a live bundle link), the Helm values, the emulator's cache.
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'static-export-demo-'));
process.env.TMPDIR = scratch;
const emulatorColor = colorsEnabled(process.env, process.stderr.isTTY === true);
const emulator = await startEmulator({
  cacheDir: path.join(scratch, 'emulator-cache'),
  jobDurationMs: seconds,
  pageCount: 24,
  agentDurationMs: Math.max(1000, seconds - 1000),
  archiveFormat: values.zip ? 'zip' : 'tar.gz',
  // The emulator's request lines are the server's side: only in the raw view, on stderr.
  log: raw
    ? (line) => process.stderr.write(emulatorColor ? `\x1b[2m${line}\x1b[0m\n` : `${line}\n`)
    : false,
});
console.log(dim(`Emulator of the admin API at ${emulator.baseUrl}`));

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

// `npm start | head`: the rest of the log has no reader, and the run still cleans up.
ignoreClosedPipe(process.stdout);
ignoreClosedPipe(process.stderr);
// Ctrl-C or a kill: passed on to the action (in a process group of its own, so a
// terminal's Ctrl-C reaches it once, from here), which stops as on a cancelled job; the
// demo then ends as usual, removing its scratch directory. A second signal ends both at
// once.
let actionPid: number | undefined;
let interrupted: NodeJS.Signals | undefined;
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(name, () => {
    const pid = actionPid;
    if (pid !== undefined) {
      try {
        process.kill(pid, name);
      } catch {
        // It has ended already.
      }
    }
    if (interrupted !== undefined || pid === undefined) {
      fsSync.rmSync(scratch, { recursive: true, force: true });
      process.exit(signalExitCode(name));
    }
    interrupted = name;
  });
}

console.log(
  `${bold('Run your-org/static-export-action@v1')} ${dim(`(${command}; with: ${Object.keys(inputs).join(', ')})`)}\n`,
);
try {
  const run = await runAction({
    inputs,
    workspace: ROOT,
    ownProcessGroup: true,
    onSpawn: (pid) => {
      actionPid = pid;
    },
    ...(raw ? { onStdout: (text: string) => process.stdout.write(text) } : {}),
  });
  // Ended: a signal from now on is the demo's alone.
  actionPid = undefined;
  // The longest name sets the column (pages-navigation-changed is 24 characters).
  const nameWidth = Math.max(0, ...Object.keys(run.outputs).map((name) => name.length));
  if (raw) {
    process.stdout.write(run.stderr);
    console.log(`\n--- outputs (GITHUB_OUTPUT) ---`);
    for (const [name, value] of Object.entries(run.outputs))
      console.log(`${name.padEnd(nameWidth)} ${value}`);
    console.log(`\n--- job summary (GITHUB_STEP_SUMMARY) ---\n${run.summary}`);
  } else {
    process.stdout.write(renderGitHubLog(run.stdout, { expand: values.expand, color }));
    if (run.stderr.trim() !== '') process.stderr.write(run.stderr);
    console.log(`\n${bold('Outputs')}`);
    for (const [name, value] of Object.entries(run.outputs)) {
      // A presigned link is a screenful of signature: the file holds it whole.
      const shown = name === 'bundle-url' ? withoutQuery(value) : value;
      console.log(`  ${name.padEnd(nameWidth)} ${shown}`);
    }
    console.log(`\n${bold('Job summary')}`);
    process.stdout.write(renderSummaryText(run.summary).replace(/^(?=.)/gm, '  '));
  }
  console.log(
    `\n${run.code === 0 ? '✓' : '✗'} exit code ${run.code} after ${(run.durationMs / 1000).toFixed(1)}s`,
  );
  const helmValues = run.outputs['helm-values-file'];
  if (!raw && helmValues) {
    // The file goes with the demo's temporary root: show what a deploy job would read.
    console.log(`\n${bold('Helm values')} ${dim('(helm-values-file, removed with the demo)')}`);
    const values = await fs.readFile(helmValues, 'utf8');
    // As in the outputs: the link's signature is a screenful, the file holds it whole.
    const shown = values.replace(/^(\s*bundleUrl: "[^"?]*)\?[^"]*"/m, '$1?…"');
    process.stdout.write(shown.replace(/^(?=.)/gm, '  '));
  }
  if (command === 'export' && run.code === 0)
    console.log(`The site is in ${run.outputs.path}; open index.html in a browser.`);
  if (!raw) console.log(dim('npm start -- --raw shows what the runner reads.'));
  // Interrupted, the demo ends as a shell expects of one (130 for Ctrl-C).
  process.exitCode = interrupted !== undefined ? signalExitCode(interrupted) : (run.code ?? 1);
} finally {
  await emulator.stop();
  await fs.rm(scratch, { recursive: true, force: true });
}
