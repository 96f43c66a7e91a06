import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { ROOT } from '../../scripts/runner.js';

/**
 * The CLI in a real pseudo-terminal: tmux runs it in a window of a given width and
 * capture-pane reads the screen back, scrollback included, as a person would see it.
 */

const CLI = path.join(ROOT, 'dist', 'cli', 'index.js');
const run = promisify(execFile);

function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = tmuxAvailable();
if (!available && process.env.CI === 'true') {
  throw new Error(
    'tmux is missing: .ci/run installs it; the terminal tests cannot run without it.',
  );
}
if (!available) console.warn('Skipping the pseudo-terminal tests: tmux is not installed.');

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

interface Screen {
  /** Every row of the window and its scrollback, as drawn. */
  rows: string[];
  code: number;
}

/** Runs the CLI in a tmux window `columns` wide and returns the final screen. */
async function inTerminal(
  columns: number,
  args: string[],
  env: Record<string, string>,
): Promise<Screen> {
  const socket = `sea-${process.pid}-${columns}-${Date.now()}`;
  const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-pty-'));
  const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [
    'env',
    '-i',
    ...Object.entries({
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      // Whatever the CLI leaves in its temp directory stays in this test's.
      TMPDIR: cwd,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      ...env,
    }).map(([name, value]) => quoted(`${name}=${value}`)),
    quoted(process.execPath),
    quoted(CLI),
    ...args.map(quoted),
  ].join(' ');
  const tmux = (...words: string[]) => run('tmux', ['-u', '-L', socket, ...words]);
  await tmux(
    'new-session',
    '-d',
    '-x',
    String(columns),
    '-y',
    '20',
    '-c',
    cwd,
    `${command}; echo "EXIT:$?"; sleep 600`,
  );
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { stdout } = await tmux('capture-pane', '-p', '-S', '-', '-E', '-');
      const exit = /^EXIT:(\d+)$/m.exec(stdout);
      if (exit) {
        const rows = stdout.replace(/\n+$/, '').split('\n');
        return { rows: rows.slice(0, rows.indexOf(exit[0])), code: Number(exit[1]) };
      }
      if (Date.now() > deadline) throw new Error(`no exit after 60s:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await tmux('kill-server').catch(() => undefined);
    await fs.rm(cwd, { recursive: true, force: true });
  }
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    jobDurationMs: 2500,
    queuedMs: 200,
    pageCount: 30,
    archiveSizeBytes: 24 * 1024 * 1024,
    fileCount: 200,
    log: false,
  });
});
afterAll(async () => {
  await emulator?.stop();
});

describe.skipIf(!available)('static-export in a pseudo-terminal', () => {
  it.each([60, 120])(
    'at %i columns, leaves one clean progress line per phase and no fragments',
    async (columns) => {
      const screen = await inTerminal(
        columns,
        [
          'export',
          '--base-url',
          emulator.baseUrl,
          '--domain',
          'docs.example.com',
          '--path',
          'site',
        ],
        { ADMIN_API_KEY: emulator.keys.write },
      );
      const text = screen.rows.join('\n');
      expect(screen.code, text).toBe(0);
      const bars = screen.rows.filter((row) => /\[[#.]+\]/.test(row));
      expect(bars, text).toEqual([
        expect.stringMatching(/^✓ completed 100% \[#+\] 30 pages$/),
        expect.stringMatching(/^✓ download 100% \[#+\] 24 MB of 24 MB$/),
      ]);
      for (const bar of bars) expect([...bar].length).toBeLessThan(columns);
      // Nothing of a live frame is left: no spinner, no time left, no history line.
      expect(text).not.toMatch(SPINNER);
      expect(text).not.toContain(' left');
      expect(text).not.toMatch(/^\[ *[\d.]+m?s\]/m);
      // Each phase in order, its progress line right under its title.
      const at = (pattern: RegExp) => screen.rows.findIndex((row) => pattern.test(row));
      expect(at(/^▸ Waiting for export job/)).toBeLessThan(at(/^✓ completed/));
      expect(at(/^✓ completed/)).toBeLessThan(at(/^▸ Getting the bundle link/));
      expect(at(/^✓ download/)).toBeLessThan(at(/^Downloaded 24 MB/));
      expect(text).toMatch(/^Outputs:$/m);
      expect(text).not.toContain(emulator.keys.write);
    },
    90_000,
  );

  it('TERM=dumb gets plain lines: no escape sequence, no live line', async () => {
    const screen = await inTerminal(
      80,
      ['export', '--base-url', emulator.baseUrl, '--domain', 'docs.example.com', '--no-download'],
      { ADMIN_API_KEY: emulator.keys.write, TERM: 'dumb' },
    );
    expect(screen.code).toBe(0);
    const text = screen.rows.join('\n');
    expect(text).toMatch(/^\[ *[\d.]+m?s\] completed · 100% · 30 pages$/m);
    expect(text).not.toMatch(SPINNER);
    expect(text).not.toMatch(/^✓/m);
  }, 60_000);
});
