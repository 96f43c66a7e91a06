import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact.js';
import { describeProgress, TerminalReporter } from '../../src/terminal.js';

function stream(tty: boolean) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  Object.assign(out, { isTTY: tty });
  return { out: out as unknown as NodeJS.WriteStream, text: () => text };
}

describe('terminal output', () => {
  it('draws percent, a bar, pages and the time left for an export', () => {
    expect(
      describeProgress(
        { phase: 'export', status: 'running', percent: 42, pages: 120, etaMs: 35_000 },
        '⠙',
      ),
    ).toBe('⠙ running  42% [##########..............] 120 pages · about 35s left');
    expect(
      describeProgress(
        { phase: 'download', bytes: 50 * 1024 * 1024, totalBytes: 200 * 1024 * 1024 },
        '⠋',
      ),
    ).toBe('⠋ download  25% [######..................] 50 MB of 200 MB');
  });

  it('keeps one live line on a TTY and clears it before each log line', () => {
    const { out, text } = stream(true);
    const reporter = new TerminalReporter({
      stream: out,
      redactor: new Redactor(),
      verbose: false,
    });
    reporter.progress({ phase: 'export', status: 'running', percent: 10 });
    reporter.info('a log line');
    expect(text()).toMatch(/^\r\x1b\[2K⠙ running +10% \[#+\.+\]\r\x1b\[2Ka log line\n$/);
  });

  it('prints plain lines only when the stream is not a TTY (CI logs)', () => {
    const { out, text } = stream(false);
    const redactor = new Redactor();
    redactor.add('mint_secretkey123');
    const reporter = new TerminalReporter({ stream: out, redactor, verbose: false });
    reporter.progress({ phase: 'export', status: 'running', percent: 10 });
    reporter.info('key mint_secretkey123 in a line');
    reporter.debug('hidden without --verbose');
    reporter.warning('careful', { file: 'site/index.html', startLine: 3 });
    expect(text()).toBe('key *** in a line\nwarning: site/index.html:3: careful\n');
  });
});
