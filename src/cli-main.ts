#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { runCli } from './cli.js';
import { ignoreClosedPipe, runToTheEnd } from './signals.js';

ignoreClosedPipe(process.stdout);
ignoreClosedPipe(process.stderr);
await runToTheEnd(
  async () => {
    process.exitCode = await runCli(process.argv.slice(2), {
      env: process.env,
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
      readStdin: () => text(process.stdin),
      stdinIsTerminal: process.stdin.isTTY === true,
    });
  },
  (line) =>
    process.stderr.write(`error: ${line}
`),
);
