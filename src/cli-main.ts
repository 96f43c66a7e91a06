#!/usr/bin/env node
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
      readStdin: async (onData) => {
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) {
          if (chunks.length === 0) onData?.();
          chunks.push(chunk as Buffer);
        }
        return new TextDecoder().decode(Buffer.concat(chunks));
      },
      stdinIsTerminal: process.stdin.isTTY === true,
    });
  },
  (line) =>
    process.stderr.write(`error: ${line}
`),
);
