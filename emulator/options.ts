import { isIPv4, isIPv6 } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_EXPIRES_SEC } from './sigv4.js';
import type { EmulatorOptions } from './types.js';

export const DEFAULT_KEYS = {
  write: 'mint_emulatorwritekey0001',
  read: 'mint_emulatorreadkey00001',
} as const;

type Hooks = 'outcomeFor' | 'archiveFor';

/** Every option with its default filled in; hooks stay optional. */
export type ResolvedOptions = Required<Omit<EmulatorOptions, Hooks | 'keys' | 'log'>> &
  Pick<EmulatorOptions, Hooks> & {
    keys: { write: string; read: string };
    log: ((line: string) => void) | false;
  };

const writeToStderr = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    storePort: options.storePort ?? 0,
    host: options.host ?? '127.0.0.1',
    allowNonLoopbackHost: options.allowNonLoopbackHost ?? false,
    keys: { ...DEFAULT_KEYS, ...options.keys },
    projects: options.projects ?? ['demo-project'],
    jobDurationMs: options.jobDurationMs ?? 4000,
    queuedMs: options.queuedMs ?? 500,
    pageCount: options.pageCount ?? 24,
    progressProfile: options.progressProfile ?? 'linear',
    archiveFormat: options.archiveFormat ?? 'tar.gz',
    archiveSizeBytes: options.archiveSizeBytes ?? 0,
    fileCount: options.fileCount ?? 0,
    linkLifetimeSec: options.linkLifetimeSec ?? 3600,
    variant: options.variant ?? 'standard',
    timeScale: options.timeScale ?? 1,
    agentDurationMs: options.agentDurationMs ?? 3000,
    agentRateLimit: options.agentRateLimit ?? 100,
    agentRetryAfter: options.agentRetryAfter ?? false,
    createIncludesStatus: options.createIncludesStatus ?? false,
    agentFailureReason: options.agentFailureReason ?? false,
    exportStartLimit: options.exportStartLimit ?? 10,
    outcomeFor: options.outcomeFor,
    archiveFor: options.archiveFor,
    cacheDir: options.cacheDir ?? join(tmpdir(), 'static-export-emulator-cache'),
    log: options.log === undefined ? writeToStderr : options.log,
  };
  assertSane(resolved);
  return resolved;
}

function assertSane(o: ResolvedOptions): void {
  const problems: string[] = [];
  const nonNegative = (name: string, value: number): void => {
    if (!Number.isFinite(value) || value < 0) problems.push(`${name} must be a number >= 0`);
  };
  nonNegative('jobDurationMs', o.jobDurationMs);
  nonNegative('queuedMs', o.queuedMs);
  nonNegative('archiveSizeBytes', o.archiveSizeBytes);
  nonNegative('agentDurationMs', o.agentDurationMs);
  if (!Number.isInteger(o.pageCount) || o.pageCount < 1) problems.push('pageCount must be >= 1');
  if (!Number.isInteger(o.fileCount) || o.fileCount < 0) problems.push('fileCount must be >= 0');
  // X-Amz-Expires holds whole seconds up to 7 days; any other lifetime makes every link fail.
  if (!Number.isInteger(o.linkLifetimeSec) || o.linkLifetimeSec < 1) {
    problems.push('linkLifetimeSec must be a whole number of seconds >= 1');
  } else if (o.linkLifetimeSec > MAX_EXPIRES_SEC) {
    problems.push(`linkLifetimeSec must be at most ${MAX_EXPIRES_SEC} (7 days, the limit of S3)`);
  }
  if (!(o.timeScale >= 0)) problems.push('timeScale must be >= 0 (0 freezes the clock)');
  if (!Number.isInteger(o.agentRateLimit) || o.agentRateLimit < 0) {
    problems.push('agentRateLimit must be an integer >= 0');
  }
  for (const key of [o.keys.write, o.keys.read]) {
    if (!/^mint_[A-Za-z0-9]+$/.test(key))
      problems.push('keys must look like mint_<letters/digits>');
  }
  if (o.keys.write === o.keys.read) problems.push('the write and read keys must differ');
  if (!o.allowNonLoopbackHost && !isLoopback(o.host)) {
    problems.push(
      `host ${o.host} is not a loopback address (127.0.0.1, ::1, localhost): the emulator's control endpoints take no key, so it listens where other machines reach it only with allowNonLoopbackHost: true`,
    );
  }
  if (problems.length > 0) throw new Error(`Invalid emulator options: ${problems.join('; ')}`);
}

/** 127.0.0.0/8, ::1 (in any spelling, IPv4-mapped included) or localhost. */
function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (!isIPv6(host)) return false;
  const canonical = new URL(`http://[${host}]`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
