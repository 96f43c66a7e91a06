import { formatBytes, formatDuration } from './duration.js';
import type { Redactor } from './redact.js';
import type { Annotation, OutputName, ProgressState, Reporter } from './report.js';

export interface TerminalOptions {
  /** Where log lines go: stderr when stdout carries --json. */
  stream: NodeJS.WriteStream;
  redactor: Redactor;
  /** Print debug lines. */
  verbose: boolean;
}

const BAR_WIDTH = 24;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A Reporter for people at a terminal and for CI systems other than GitHub: plain
 * lines everywhere, plus one live progress line (percent, pages, ETA or bytes) when the
 * stream is a TTY. Outputs are collected for the caller to print.
 */
export class TerminalReporter implements Reporter {
  readonly outputs: Partial<Record<OutputName, string>> = {};
  readonly #stream: NodeJS.WriteStream;
  readonly #redactor: Redactor;
  readonly #verbose: boolean;
  readonly #tty: boolean;
  readonly #color: boolean;
  #liveLine = false;
  #frame = 0;
  #lastDraw = 0;

  constructor(options: TerminalOptions) {
    this.#stream = options.stream;
    this.#redactor = options.redactor;
    this.#verbose = options.verbose;
    this.#tty = options.stream.isTTY === true;
    this.#color = this.#tty && !process.env.NO_COLOR;
  }

  info(message: string): void {
    this.#line(message);
  }

  notice(message: string, annotation?: Annotation): void {
    this.#line(`${this.#paint('36', 'notice')}: ${this.#where(annotation)}${message}`);
  }

  warning(message: string, annotation?: Annotation): void {
    this.#line(`${this.#paint('33', 'warning')}: ${this.#where(annotation)}${message}`);
  }

  error(message: string, annotation?: Annotation): void {
    this.#line(`${this.#paint('31', 'error')}: ${this.#where(annotation)}${message}`);
  }

  debug(message: string): void {
    if (this.#verbose) this.#line(this.#paint('2', `debug: ${message}`));
  }

  async group<T>(title: string, fn: () => Promise<T>): Promise<T> {
    this.#line(this.#paint('1', `▸ ${title}`));
    try {
      return await fn();
    } finally {
      this.#clearLive();
    }
  }

  setOutput(name: OutputName, value: string): void {
    this.outputs[name] = this.#redactor.redact(value);
  }

  mask(value: string): void {
    this.#redactor.add(value);
  }

  progress(state: ProgressState): void {
    if (!this.#tty) return;
    const now = Date.now();
    const done =
      state.percent === 100 || (state.totalBytes !== undefined && state.bytes === state.totalBytes);
    if (now - this.#lastDraw < 100 && !done) return;
    this.#lastDraw = now;
    this.#frame = (this.#frame + 1) % SPINNER.length;
    this.#stream.write(`\r\x1b[2K${describeProgress(state, SPINNER[this.#frame] as string)}`);
    this.#liveLine = true;
  }

  #where(annotation?: Annotation): string {
    if (!annotation?.file) return '';
    return `${annotation.file}${annotation.startLine ? `:${annotation.startLine}` : ''}: `;
  }

  #paint(code: string, text: string): string {
    return this.#color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  #clearLive(): void {
    if (this.#liveLine) {
      this.#stream.write('\r\x1b[2K');
      this.#liveLine = false;
    }
  }

  #line(text: string): void {
    this.#clearLive();
    this.#stream.write(`${this.#redactor.redact(text)}\n`);
  }
}

/** `⠙ running  42% [#########...............] 120 pages · about 35s left` */
export function describeProgress(state: ProgressState, spinner: string): string {
  const bar = (fraction: number) => {
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * BAR_WIDTH);
    return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  };
  if (state.phase === 'download') {
    const total = state.totalBytes;
    const bytes = state.bytes ?? 0;
    return total
      ? `${spinner} download ${String(Math.floor((bytes / total) * 100)).padStart(3)}% ${bar(bytes / total)} ${formatBytes(bytes)} of ${formatBytes(total)}`
      : `${spinner} download ${formatBytes(bytes)}`;
  }
  const parts = [`${spinner} ${state.status ?? ''}`];
  if (state.percent !== undefined)
    parts.push(`${String(Math.round(state.percent)).padStart(3)}% ${bar(state.percent / 100)}`);
  if (state.pages !== undefined) parts.push(`${state.pages} pages`);
  if (state.etaMs !== undefined) parts.push(`· about ${formatDuration(state.etaMs)} left`);
  return parts.join(' ');
}
