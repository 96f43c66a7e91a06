import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './action-yml.js';

/** A module of src, by its absolute path, for a child's `import`. */
export function srcModule(relative: string): string {
  return JSON.stringify(path.join(ROOT, 'src', relative));
}

/**
 * Runs `script` (an ES module in TypeScript, importing src through srcModule) in a child
 * Node process of its own, as another run on the machine is: its own process id and start.
 * Resolves once it has printed its first line, with that line; the child goes on until it
 * ends by itself or is killed (the caller's to do). Its stdin is a pipe the caller may
 * write to, to tell it when to go on.
 */
export async function startChildScript(
  script: string,
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the child ended (${signal ?? code}) before a line: ${err}`)),
    );
  });
  return { child, line };
}

/** Resolves once `child` has ended, at once when it already has. */
export async function childEnded(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

/** Kills `child` with `signal` and resolves once it has ended. */
export async function endChild(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<void> {
  const ended = childEnded(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await ended;
}
