#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  readStdin: () => text(process.stdin),
});
