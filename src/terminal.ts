import { asCommandLine } from './cli-flags.js';
import { formatBytes, formatDuration } from './duration.js';
import { Redactor } from './redact.js';
import {
  type Annotation,
  type LineDetail,
  type OutputName,
  type ProgressState,
  type Reporter,
  visibleControls,
  withoutCommands,
} from './report.js';

export interface TerminalOptions {
  /** Where logs and progress go: stderr, so that stdout carries only results. */
  stream: NodeJS.WriteStream;
  redactor: Redactor;
  /** Read for TERM, NO_COLOR and FORCE_COLOR. */
  env: NodeJS.ProcessEnv;
  /** Print debug lines. */
  verbose: boolean;
  /** Print only warnings and errors. */
  quiet?: boolean;
  /** Paces redraws; the system clock by default. */
  now?: () => number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const REDRAW_EVERY_MS = 100;
const DONE = '✓';
const FAILED = '✗';

/**
 * Colors follow the conventions other tools honour: FORCE_COLOR (0 or false turns them
 * off) wins, then NO_COLOR, then TERM=dumb; otherwise only on a terminal.
 */
export function colorsEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (env.NO_COLOR) return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * A Reporter for people at a terminal and for CI systems other than GitHub. On a
 * terminal (not TERM=dumb) each phase shows one live progress line, redrawn in place
 * within the terminal's width and kept, in its final state, when the phase ends;
 * progress history lines are left out since the live line shows the same. Anywhere
 * else: plain lines, no escape sequences. Outputs are collected for the caller to print.
 */
export class TerminalReporter implements Reporter {
  readonly outputs: Partial<Record<OutputName, string>> = {};
  readonly #stream: NodeJS.WriteStream;
  readonly #redactor: Redactor;
  /** Values hidden in the log but kept in the outputs (a masked bundle link). */
  readonly #logOnly = new Redactor();
  /** Outputs that hold a value hidden in the log: the table of outputs shows them masked. */
  readonly maskedOutputs = new Set<OutputName>();
  readonly #verbose: boolean;
  readonly #quiet: boolean;
  readonly #live: boolean;
  readonly #color: boolean;
  readonly #now: () => number;
  /** The progress of the current phase, drawn on the last row. */
  #state: ProgressState | undefined;
  #drawn = false;
  #frame = 0;
  #lastDraw = 0;

  constructor(options: TerminalOptions) {
    this.#stream = options.stream;
    this.#redactor = options.redactor;
    this.#verbose = options.verbose;
    this.#quiet = options.quiet === true;
    const tty = options.stream.isTTY === true;
    this.#live = tty && options.env.TERM !== 'dumb';
    this.#color = colorsEnabled(options.env, tty);
    this.#now = options.now ?? Date.now;
  }

  info(message: string, detail?: LineDetail): void {
    if (this.#quiet) return;
    if (detail?.progress && this.#live) return;
    this.#line(this.#text(message));
  }

  notice(message: string, annotation?: Annotation): void {
    if (this.#quiet) return;
    this.#line(`${this.#paint('36', 'notice')}: ${this.#where(annotation)}${this.#text(message)}`);
  }

  warning(message: string, annotation?: Annotation): void {
    this.#line(`${this.#paint('33', 'warning')}: ${this.#where(annotation)}${this.#text(message)}`);
  }

  error(message: string, annotation?: Annotation): void {
    this.#line(`${this.#paint('31', 'error')}: ${this.#where(annotation)}${this.#text(message)}`);
  }

  debug(message: string): void {
    if (this.#verbose) this.#line(this.#paint('2', `debug: ${this.#text(message)}`));
  }

  async group<T>(title: string, fn: () => Promise<T>): Promise<T> {
    if (!this.#quiet) this.#line(this.#paint('1', `▸ ${this.#text(title)}`));
    let ok = false;
    try {
      const result = await fn();
      ok = true;
      return result;
    } finally {
      this.#settle(ok);
    }
  }

  setOutput(name: OutputName, value: string): void {
    const output = this.#redactor.redact(value);
    this.outputs[name] = output;
    if (this.#logOnly.redact(output) !== output) this.maskedOutputs.add(name);
    else this.maskedOutputs.delete(name);
  }

  mask(value: string, scope: 'secret' | 'log' = 'secret'): void {
    (scope === 'log' ? this.#logOnly : this.#redactor).add(value);
  }

  /** Text for the log: without secrets, nor what was masked for the log. */
  redact(text: string): string {
    return this.#logOnly.redact(this.#redactor.redact(text));
  }

  progress(state: ProgressState): void {
    if (!this.#live || this.#quiet) return;
    const changedPhase = this.#state?.phase !== state.phase || this.#state?.status !== state.status;
    this.#state = state;
    const now = this.#now();
    if (!changedPhase && now - this.#lastDraw < REDRAW_EVERY_MS) return;
    this.#lastDraw = now;
    this.#frame = (this.#frame + 1) % SPINNER.length;
    this.#draw(SPINNER[this.#frame] as string, false);
  }

  /** Ends the live line, if one is drawn, so that what follows starts on a new row. */
  close(): void {
    this.#settle(false);
  }

  #settle(ok: boolean): void {
    if (this.#state === undefined) return;
    const failed = !ok || this.#state.status === 'failed';
    this.#draw(failed ? this.#paint('31', FAILED) : this.#paint('32', DONE), true);
    this.#stream.write('\n');
    this.#state = undefined;
    this.#drawn = false;
  }

  #draw(mark: string, final: boolean): void {
    const state = this.#state as ProgressState;
    const width = Math.max(10, (this.#stream.columns || 80) - 1);
    const text = describeProgress(state, { mark: '', width: width - 2, final });
    // One row, never wider than the terminal: a wrapped line could not be redrawn in place.
    this.#stream.write(`\r${mark} ${this.redact(text)}\x1b[K`);
    this.#drawn = true;
  }

  #where(annotation?: Annotation): string {
    if (!annotation?.file) return '';
    return `${this.#text(annotation.file)}${annotation.startLine ? `:${annotation.startLine}` : ''}: `;
  }

  /**
   * A message without secrets, its control characters (but line breaks and tabs) shown as
   * `\xNN`; in a `run:` step the runner reads stderr for workflow commands too, so no line
   * of it starts one.
   */
  #text(message: string): string {
    return this.shown(asCommandLine(message));
  }

  /** Text as every line of stderr shows it (see #text), input names left as they are: a stack. */
  shown(text: string): string {
    return withoutCommands(visibleControls(this.redact(text)));
  }

  #paint(code: string, text: string): string {
    return this.#color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  #line(text: string): void {
    // A phase that reached its end keeps its final line above what follows.
    if (this.#drawn && this.#state && isComplete(this.#state)) {
      this.#settle(true);
    }
    const live = this.#drawn;
    if (live) this.#stream.write('\r\x1b[K');
    this.#stream.write(`${text}\n`);
    if (live) this.#draw(SPINNER[this.#frame] as string, false);
  }
}

/** The job settled, or every byte arrived. */
function isComplete(state: ProgressState): boolean {
  if (state.phase === 'download') {
    return state.totalBytes !== undefined && state.bytes === state.totalBytes;
  }
  return ['completed', 'failed', 'archived'].includes(state.status ?? '');
}

export interface ProgressLayout {
  /** Spinner frame or final mark, first on the line; empty for none. */
  mark: string;
  /** Columns available; the line is shortened to fit. */
  width?: number;
  /** The phase has ended: no time left is shown. */
  final?: boolean;
}

/** Only printable ASCII from the server reaches the terminal (no escape sequences). */
function printable(text: string, max = 24): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function bar(fraction: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/**
 * `running  42% [#########.......] 120 pages · about 35s left`, made to fit `width`:
 * the bar narrows, then the time left, the bar and the details go, in that order.
 */
export function describeProgress(state: ProgressState, layout: ProgressLayout): string {
  const width = layout.width ?? Infinity;
  const download = state.phase === 'download';
  const label = download ? 'download' : printable(state.status ?? '');
  const fraction = download
    ? state.totalBytes
      ? (state.bytes ?? 0) / state.totalBytes
      : undefined
    : state.percent !== undefined
      ? state.percent / 100
      : undefined;
  const percent =
    fraction !== undefined ? `${String(Math.floor(fraction * 100)).padStart(3)}%` : undefined;
  const details = download
    ? `${formatBytes(state.bytes ?? 0)}${state.totalBytes ? ` of ${formatBytes(state.totalBytes)}` : ''}`
    : state.pages !== undefined
      ? `${state.pages} page${state.pages === 1 ? '' : 's'}`
      : undefined;
  const settled = layout.final || fraction === 1 || ['completed', 'failed'].includes(label);
  const eta =
    state.etaMs !== undefined && !settled
      ? `· about ${formatDuration(state.etaMs)} left`
      : undefined;

  const compose = (barWidth: number, withEta: boolean, withDetails: boolean) =>
    [
      layout.mark || undefined,
      label,
      percent,
      fraction !== undefined && barWidth > 0 ? bar(fraction, barWidth) : undefined,
      withDetails ? details : undefined,
      withEta ? eta : undefined,
    ]
      .filter((part): part is string => part !== undefined && part !== '')
      .join(' ');
  const fits = (text: string) => [...text].length <= width;
  for (const barWidth of [24, 20, 16, 12, 10]) {
    const text = compose(barWidth, true, true);
    if (fits(text)) return text;
  }
  for (const candidate of [
    compose(10, false, true),
    compose(0, false, true),
    compose(0, false, false),
  ]) {
    if (fits(candidate)) return candidate;
  }
  const shortest = [...compose(0, false, false)];
  return `${shortest.slice(0, Math.max(0, width - 1)).join('')}…`;
}
