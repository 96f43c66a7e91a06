import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact.js';
import { colorsEnabled, describeProgress, TerminalReporter } from '../../src/terminal.js';

function stream(tty: boolean, columns?: number) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  Object.assign(out, { isTTY: tty, columns });
  return { out: out as unknown as NodeJS.WriteStream, text: () => text };
}

const ESCAPE = /\x1b/;
const RUNNING = {
  phase: 'export',
  status: 'running',
  percent: 42,
  pages: 120,
  etaMs: 35_000,
} as const;

/** What each redraw leaves on the row: the text after the last carriage return. */
function rows(text: string): string[] {
  return text
    .split(/\r|\n/)
    .map((row) => row.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''))
    .filter((row) => row !== '');
}

describe('describeProgress', () => {
  it('shows percent, a bar, pages and the time left when there is room', () => {
    expect(describeProgress(RUNNING, { mark: '⠙' })).toBe(
      '⠙ running  42% [##########..............] 120 pages · about 35s left',
    );
    expect(
      describeProgress(
        { phase: 'download', bytes: 50 * 1024 * 1024, totalBytes: 200 * 1024 * 1024 },
        { mark: '⠋' },
      ),
    ).toBe('⠋ download  25% [######..................] 50 MB of 200 MB');
  });

  it.each([80, 59, 40, 30, 20, 12])('fits %i columns, dropping detail in order', (width) => {
    const text = describeProgress(RUNNING, { mark: '⠙', width });
    expect([...text].length).toBeLessThanOrEqual(width);
    expect(text.startsWith('⠙ running')).toBe(true);
  });

  it('narrows the bar before it drops the time left, and the time left before the pages', () => {
    expect(describeProgress(RUNNING, { mark: '', width: 59 })).toBe(
      'running  42% [#######.........] 120 pages · about 35s left',
    );
    expect(describeProgress(RUNNING, { mark: '', width: 40 })).toBe(
      'running  42% [####......] 120 pages',
    );
    expect(describeProgress(RUNNING, { mark: '', width: 20 })).toBe('running  42%');
  });

  it('shows no time left once the job completed or the phase ended', () => {
    expect(describeProgress({ ...RUNNING, status: 'completed', percent: 100 }, { mark: '' })).toBe(
      'completed 100% [########################] 120 pages',
    );
    expect(describeProgress(RUNNING, { mark: '', final: true })).not.toContain('left');
  });

  it('shows only printable text from the server', () => {
    const text = describeProgress({ phase: 'export', status: 'run\x1b[2Jning' }, { mark: '' });
    expect(text).toBe('run?[2Jning');
  });
});

describe('colorsEnabled', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ])('%j on a TTY: %s -> %s', (env, tty, expected) => {
    expect(colorsEnabled(env, tty)).toBe(expected);
  });
});

describe('TerminalReporter', () => {
  const reporter = (
    out: NodeJS.WriteStream,
    env: NodeJS.ProcessEnv = {},
    options: { quiet?: boolean } = {},
  ) =>
    new TerminalReporter({
      stream: out,
      redactor: new Redactor(),
      env,
      verbose: false,
      ...options,
    });

  it('on a 60-column terminal, redraws one row within the width and keeps the final state', async () => {
    const { out, text } = stream(true, 60);
    const terminal = reporter(out, { NO_COLOR: '1' });
    await terminal.group('Waiting for export job se_1', async () => {
      terminal.info('[  1.0s] running · 42% · 120 pages', { progress: true });
      terminal.progress(RUNNING);
      terminal.info('Could not get the job (HTTP 503): trying again in 1s.');
      terminal.progress({ ...RUNNING, status: 'completed', percent: 100, etaMs: undefined });
    });
    terminal.info('after');
    for (const row of rows(text())) expect([...row].length).toBeLessThanOrEqual(59);
    // The log line clears the live row, and the live row comes back below it.
    expect(text()).toContain('\r\x1b[KCould not get the job (HTTP 503): trying again in 1s.\n\r⠙');
    const lines = text()
      .split('\n')
      .map((line) => rows(line).at(-1));
    expect(lines).toEqual([
      '▸ Waiting for export job se_1',
      'Could not get the job (HTTP 503): trying again in 1s.',
      '✓ completed 100% [########################] 120 pages',
      'after',
      undefined,
    ]);
    expect(text()).not.toContain('[  1.0s]');
  });

  it('redraws at most every 100 ms, but at once when the status changes', () => {
    const { out, text } = stream(true, 120);
    let now = 1000;
    const terminal = new TerminalReporter({
      stream: out,
      redactor: new Redactor(),
      env: { NO_COLOR: '1' },
      verbose: false,
      now: () => now,
    });
    const draws = () =>
      text()
        .split('\r')
        .filter((row) => row !== '').length;
    terminal.progress({ phase: 'download', bytes: 1, totalBytes: 100 });
    now += 50;
    terminal.progress({ phase: 'download', bytes: 2, totalBytes: 100 });
    expect(draws()).toBe(1);
    now += 60;
    terminal.progress({ phase: 'download', bytes: 3, totalBytes: 100 });
    expect(draws()).toBe(2);
    terminal.progress({ ...RUNNING });
    expect(draws()).toBe(3);
  });

  it('marks a job that ended failed', async () => {
    const { out, text } = stream(true, 120);
    const terminal = reporter(out, { NO_COLOR: '1' });
    await terminal.group('Waiting', async () => {
      terminal.progress({ phase: 'export', status: 'failed', percent: 40, pages: 3 });
    });
    expect(text()).toMatch(/\r✗ failed {2}40% \[#+\.+\] 3 pages\x1b\[K\n$/);
  });

  it('marks the phase failed when it throws', async () => {
    const { out, text } = stream(true, 120);
    const terminal = reporter(out, { NO_COLOR: '1' });
    await expect(
      terminal.group('Downloading', async () => {
        terminal.progress({ phase: 'download', bytes: 10, totalBytes: 100 });
        throw new Error('cut');
      }),
    ).rejects.toThrow('cut');
    expect(text()).toMatch(/\r✗ download {2}10% \[#{2}\.+\] 10 B of 100 B\x1b\[K\n$/);
  });

  it.each([
    ['not a TTY', false, {}],
    ['TERM=dumb', true, { TERM: 'dumb' }],
  ])('prints plain lines only when %s', async (_, tty, env) => {
    const { out, text } = stream(tty, 80);
    const redactor = new Redactor();
    redactor.add('mint_secretkey123');
    const terminal = new TerminalReporter({ stream: out, redactor, env, verbose: false });
    await terminal.group('Waiting', async () => {
      terminal.progress(RUNNING);
      terminal.info('[  1.0s] running · 42%', { progress: true });
    });
    terminal.info('key mint_secretkey123 in a line');
    terminal.debug('hidden without --verbose');
    terminal.warning('careful', { file: 'site/index.html', startLine: 3 });
    expect(text()).not.toMatch(ESCAPE);
    expect(text()).toBe(
      '▸ Waiting\n[  1.0s] running · 42%\nkey *** in a line\nwarning: site/index.html:3: careful\n',
    );
  });

  it('colors labels when FORCE_COLOR is set, even in a pipe, without a live line', () => {
    const { out, text } = stream(false);
    const terminal = reporter(out, { FORCE_COLOR: '1' });
    terminal.progress(RUNNING);
    terminal.error('boom');
    expect(text()).toBe('\x1b[31merror\x1b[0m: boom\n');
  });

  it('prints escape sequences and carriage returns a server sent as visible text, not as commands to the terminal', async () => {
    const { out, text } = stream(false);
    const terminal = reporter(out);
    await terminal.group('Agent job \x1b]0;title\x07', async () => {
      terminal.info('Branch: main\x1b[2J\x1b]8;;https://evil.example/\x1b\\here\x1b]8;;\x1b\\');
      terminal.warning('Server said: ok\rFAKE\u009b31m');
      terminal.info('two lines\n\tindented');
    });
    expect(text()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text()).toBe(
      [
        '▸ Agent job \\x1b]0;title\\x07',
        'Branch: main\\x1b[2J\\x1b]8;;https://evil.example/\\x1b\\here\\x1b]8;;\\x1b\\',
        'warning: Server said: ok\\x0dFAKE\\x9b31m',
        'two lines\n\tindented',
        '',
      ].join('\n'),
    );
  });

  it('in a run: step, no line of what the archive or a server wrote starts a workflow command', async () => {
    // The runner reads the CLI's stderr for `::name::` after .NET blanks, and `##[name]` anywhere.
    const { out, text } = stream(false);
    const terminal = reporter(out);
    terminal.info('::error title=Forged::an href, alone on its line');
    terminal.info('Links such as guide\n\u00a0\u3000::warning::pwned leave out .html');
    terminal.info('Links such as guide\n\u0085::error::pwned and ##[error]legacy');
    terminal.warning('Server said:\n ::add-mask::x');
    const commands = text()
      .split(/\r\n|\r|\n/)
      .map((line) =>
        line.replace(
          /^[\t\v\f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/,
          '',
        ),
      )
      .filter((line) => line.startsWith('::') || line.includes('##['));
    expect(commands).toEqual([]);
    expect(text()).toBe(
      [
        '\\x3a:error title=Forged::an href, alone on its line',
        'Links such as guide',
        '\u00a0\u3000\\x3a:warning::pwned leave out .html',
        'Links such as guide',
        '\\x85::error::pwned and #\\x23[error]legacy',
        'warning: Server said:',
        ' \\x3a:add-mask::x',
        '',
      ].join('\n'),
    );
  });

  it('with --quiet, prints warnings and errors only', async () => {
    const { out, text } = stream(true, 80);
    const terminal = reporter(out, {}, { quiet: true });
    await terminal.group('Waiting', async () => {
      terminal.progress(RUNNING);
      terminal.info('a log line');
      terminal.notice('a notice');
      terminal.warning('a warning');
    });
    expect(text()).toBe('\x1b[33mwarning\x1b[0m: a warning\n');
  });
});
