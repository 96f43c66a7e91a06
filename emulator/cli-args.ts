import { parseArgs } from 'node:util';
import type { ArchiveFormat, EmulatorOptions, ExportVariant, ProgressProfile } from './types.js';

export const USAGE = `Usage: tsx emulator/cli.ts [--port 4010] [--store-port N] [--job-duration 4s]
  [--pages 24] [--format tar.gz|zip] [--archive-size 256MB] [--files 20000]
  [--link-lifetime 3600] [--variant standard|inline-bundle] [--time-scale 1]
  [--progress linear|stall-then-jump] [--agent-duration 3s] [--agent-rate-limit 100]
  [--agent-retry-after] [--agent-failure-reason] [--project demo-project ...]
  [--cache-dir DIR] [--quiet]`;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '4s', '500ms', '2m' or plain milliseconds. */
export function parseDurationMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (m === null) throw new Error(`Not a duration: "${text}" (try 4s, 500ms, 2m)`);
  return Number(m[1]) * (DURATION_UNITS[m[2] ?? 'ms'] ?? 1);
}

/** '256MB', '10kb', '1GB' (binary units) or plain bytes. */
export function parseSizeBytes(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(text.trim());
  if (m === null) throw new Error(`Not a size: "${text}" (try 256MB)`);
  return Math.round(Number(m[1]) * (SIZE_UNITS[(m[2] ?? 'b').toLowerCase()] ?? 1));
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]) {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`--${name} must be one of ${allowed.join(', ')}`);
}

const optional = <T>(value: string | undefined, parse: (text: string) => T): T | undefined =>
  value === undefined ? undefined : parse(value);

const number = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new Error(`--${name} must be a number`);
  return parsed;
};

/** CLI flags to emulator options; throws with a readable message on a bad flag. */
export function optionsFromArgs(args: string[]): EmulatorOptions & { help?: boolean } {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      'store-port': { type: 'string' },
      'job-duration': { type: 'string' },
      pages: { type: 'string' },
      format: { type: 'string' },
      'archive-size': { type: 'string' },
      files: { type: 'string' },
      'link-lifetime': { type: 'string' },
      variant: { type: 'string' },
      'time-scale': { type: 'string' },
      progress: { type: 'string' },
      'agent-duration': { type: 'string' },
      'agent-rate-limit': { type: 'string' },
      'agent-retry-after': { type: 'boolean' },
      'agent-failure-reason': { type: 'boolean' },
      project: { type: 'string', multiple: true },
      'cache-dir': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const options: EmulatorOptions & { help?: boolean } = {
    help: values.help,
    port: number('port', values.port),
    storePort: number('store-port', values['store-port']),
    jobDurationMs: optional(values['job-duration'], parseDurationMs),
    pageCount: number('pages', values.pages),
    archiveFormat: oneOf<ArchiveFormat>('format', values.format, ['tar.gz', 'zip']),
    archiveSizeBytes: optional(values['archive-size'], parseSizeBytes),
    fileCount: number('files', values.files),
    linkLifetimeSec: number('link-lifetime', values['link-lifetime']),
    variant: oneOf<ExportVariant>('variant', values.variant, ['standard', 'inline-bundle']),
    timeScale: number('time-scale', values['time-scale']),
    progressProfile: oneOf<ProgressProfile>('progress', values.progress, [
      'linear',
      'stall-then-jump',
    ]),
    agentDurationMs: optional(values['agent-duration'], parseDurationMs),
    agentRateLimit: number('agent-rate-limit', values['agent-rate-limit']),
    agentRetryAfter: values['agent-retry-after'],
    agentFailureReason: values['agent-failure-reason'],
    projects: values.project,
    cacheDir: values['cache-dir'],
    log: values.quiet === true ? false : (line) => console.log(line),
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
