import path from 'node:path';
import { z } from 'zod';
import { parseByteSize, parseDuration } from './duration.js';
import type { RemovalLimit } from './changes/compare.js';
import { MANIFEST_NAME } from './deliver/manifest.js';
import {
  contains,
  type ProtectedContext,
  protectedReason,
  systemTreeOf,
} from './deliver/protected.js';
import { InputError } from './errors.js';
import { isLoopbackHost, parseServiceUrl } from './net.js';

/** Raw inputs as the runner or the command line gives them: every value a string. */
export type RawInputs = Readonly<Record<string, string | undefined>>;

export type DeploymentType = 'cloud' | 'client-hosted' | 'air-gapped';
/** `auto` adapts to the job's progress; a number polls at that fixed pace (ms). */
export type PollInterval = 'auto' | number;

export interface ConnectionConfig {
  apiKey: string;
  baseUrl: URL;
  /** Limit for the whole run, from the start of the first request (ms). */
  timeoutMs: number;
  pollInterval: PollInterval;
  /** Longest wait for an answer, and longest silence while a download streams (ms). */
  requestTimeoutMs: number;
}

/** Where the earlier export a new one is compared with comes from (`compare-with`). */
export type CompareWith =
  /** The earlier export in `path`, when it holds one (the default). */
  | { kind: 'path' }
  | { kind: 'none' }
  /** A manifest file, or a directory holding one. */
  | { kind: 'file'; path: string; given: string }
  /** A manifest served over https (by the live site). */
  | { kind: 'url'; url: URL };

export interface ExtractLimits {
  /** Ceiling on the total bytes written while extracting (decompression bombs). */
  maxBytes: number;
  /** Ceiling on the number of archive entries. */
  maxEntries: number;
  /** Ceiling on bytes written per archive byte (0 or absent: none)… */
  maxRatio?: number;
  /** …enforced only past this many bytes (default RATIO_FLOOR_BYTES, 1 GiB). */
  ratioFloorBytes?: number;
}

export interface ExportConfig extends ConnectionConfig {
  command: 'export';
  domain: string;
  docsVersion?: string;
  exportPaths?: string[];
  /** Set when the service scopes export endpoints by project. */
  projectId?: string;
  /** An export job to reuse (poll it and get a fresh link) instead of starting one. */
  jobId?: string;
  download: boolean;
  extract: boolean;
  /** Absolute directory that receives the site (or the archive file). */
  path: string;
  /** `path` as the user wrote it, for messages. */
  pathGiven: string;
  /** Replace a `path` this action did not write (never a protected one). */
  overwrite: boolean;
  /** What `path` may never replace: the workspace, home, runner and system directories. */
  protection: ProtectedContext;
  artifactName?: string;
  /** Absolute path of the Helm values file to write. */
  helmValuesFile?: string;
  releaseVersion?: string;
  deploymentType: DeploymentType;
  maskBundleUrl: boolean;
  /** Link the bundle in the job summary (never when it is masked). */
  showBundleUrl: boolean;
  limits: ExtractLimits;
  allowedHosts: string[];
  /** The headless browser part of the deployment check: `auto` runs it when Chromium is installed. */
  browserCheck: 'auto' | 'true' | 'false';
  /** Internal links that lead to no file: `warn`, `fail` the step, or `off` (not checked). */
  brokenLinks: 'warn' | 'fail' | 'off';
  compareWith: CompareWith;
  /** Fail before the export is put in place when it removes more pages than this. */
  maxRemovedPages?: RemovalLimit;
  /** Absolute path of the change report's JSON file (default: in the temp directory). */
  changesFile?: string;
}

export interface AgentConfig extends ConnectionConfig {
  command: 'agent';
  projectId: string;
  /** A new job's instruction, or a follow-up message when `jobId` is set. */
  prompt?: string;
  /** An existing agent job to follow (and, with `prompt`, to send a follow-up to). */
  jobId?: string;
  wait: boolean;
}

export type Config = ExportConfig | AgentConfig;

export interface ConfigContext {
  /** Directory relative paths are resolved against (GITHUB_WORKSPACE or the cwd). */
  workspace: string;
  /** The home directory: `~/…` paths expand to it, and it is never replaced. */
  home?: string;
  /** The runner's temp and tool-cache roots and the system temp directory: never replaced. */
  runnerDirs?: readonly string[];
  platform?: NodeJS.Platform;
  /** `release-version` when the input is empty (the commit SHA in a workflow). */
  defaultReleaseVersion?: string;
  /**
   * `prompt` was given on purpose (a command line flag), so an empty one is refused: a
   * workflow passes '' for every input it leaves unset, which counts as absent.
   */
  promptGiven?: boolean;
}

export const DEFAULTS = {
  'base-url': 'https://api.mintlify.com',
  command: 'export',
  download: 'true',
  path: 'static-export',
  extract: 'true',
  overwrite: 'false',
  timeout: '30m',
  'poll-interval': 'auto',
  'request-timeout': '30s',
  'deployment-type': 'cloud',
  'mask-bundle-url': 'false',
  'show-bundle-url': 'false',
  wait: 'true',
  'max-extract-size': '20GB',
  'max-extract-files': '500000',
  'max-extract-ratio': '100',
  'browser-check': 'auto',
  'broken-links': 'warn',
} as const satisfies RawInputs;

const MAX_PROMPT_CHARS = 100_000;
/** Each adapter names its own way (asCommandLine: `ADMIN_API_KEY`). */
const API_KEY_REQUIRED =
  'is required: the admin API key (mint_…), given as `api-key: ${{ secrets.ADMIN_API_KEY }}`';
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const text = z.string().trim();

/** A boolean as the runner spells one (core.getBooleanInput's YAML 1.2 forms). */
const TRUE_SPELLINGS = ['true', 'True', 'TRUE'];
const FALSE_SPELLINGS = ['false', 'False', 'FALSE'];

const boolean = text.transform((value, ctx) => {
  if (TRUE_SPELLINGS.includes(value)) return true;
  if (FALSE_SPELLINGS.includes(value)) return false;
  ctx.addIssue({ code: 'custom', message: `must be true or false, got "${value}"` });
  return z.NEVER;
});

/** `auto` (in any case), or a boolean spelled as the other boolean inputs take it. */
const browserCheck = text.transform((value, ctx) => {
  if (value.toLowerCase() === 'auto') return 'auto' as const;
  if (TRUE_SPELLINGS.includes(value)) return 'true' as const;
  if (FALSE_SPELLINGS.includes(value)) return 'false' as const;
  ctx.addIssue({ code: 'custom', message: `must be one of auto, true, false, got "${value}"` });
  return z.NEVER;
});

function duration(min: number, max: number, form: string, allowAuto = false) {
  return text.transform((value, ctx): number | 'auto' => {
    if (allowAuto && value.toLowerCase() === 'auto') return 'auto';
    const ms = parseDuration(value);
    if (ms === undefined || ms < min || ms > max) {
      ctx.addIssue({ code: 'custom', message: `must be ${form}, got "${value}"` });
      return z.NEVER;
    }
    return ms;
  });
}

/**
 * One of a few words, read in any letter case: `deployment-type: Air-Gapped` can mean
 * nothing else, and YAML keeps the case it is typed in.
 */
function enumOf<const T extends string>(values: readonly T[]) {
  return text.transform((value, ctx) => {
    const word = values.find((known) => known === value.toLowerCase());
    if (word !== undefined) return word;
    ctx.addIssue({
      code: 'custom',
      message: `must be one of ${values.join(', ')}, got "${value}"`,
    });
    return z.NEVER;
  });
}

function positiveInteger(form: string, parse: (value: string) => number | undefined) {
  return text.transform((value, ctx) => {
    const n = parse(value);
    if (n === undefined || !Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message: `must be ${form}, got "${value}"` });
      return z.NEVER;
    }
    return n;
  });
}

/** A bare hostname: no scheme, port, path, spaces or trailing dot. */
const domain = text.transform((value, ctx) => {
  const fail = (why: string) => {
    ctx.addIssue({
      code: 'custom',
      message: `must be a bare hostname such as docs.example.com (${why})`,
    });
    return z.NEVER;
  };
  if (value === '') return fail('it is empty');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return fail(
      `remove the scheme: "${value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '')}"`,
    );
  }
  if (/\s/.test(value)) return fail('it contains whitespace');
  if (value.includes('/')) return fail('it contains a path or a slash');
  if (value.includes(':')) return fail('it contains a port or a colon');
  if (value.endsWith('.')) return fail('it ends with a dot');
  const host = value.toLowerCase();
  if (host.length > 253) return fail('it is longer than 253 characters');
  if (!host.split('.').every((label) => HOST_LABEL.test(label))) {
    return fail('labels may hold only letters, digits and inner hyphens');
  }
  return host;
});

const baseUrl = text.transform((value, ctx) => {
  // `api.example.com` or `localhost:4010`: a host without a scheme, which URL misreads.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && /^[a-z0-9.[\]:-]+(\/\S*)?$/i.test(value)) {
    const host = value.replace(/[/:].*$/, '');
    const scheme = isLoopbackHost(host) || host.startsWith('[') ? 'http' : 'https';
    ctx.addIssue({
      code: 'custom',
      message: `has no scheme: write ${scheme}://${value} (got "${value}")`,
    });
    return z.NEVER;
  }
  const parsed = parseServiceUrl(value);
  if (parsed instanceof URL) {
    if (parsed.search || parsed.hash) {
      ctx.addIssue({ code: 'custom', message: 'must not have a query string or fragment' });
      return z.NEVER;
    }
    parsed.pathname = parsed.pathname.replace(/\/+$/, '');
    // The vendor's static export reference names `https://api.mintlify.com/v1` as its
    // server: copied here, every path would start `/v1/v1/` and answer 404.
    const version = /\/(v\d+)$/i.exec(parsed.pathname);
    if (version) {
      ctx.addIssue({
        code: 'custom',
        message: `ends with /${version[1]}, which each request adds itself (/v1/static-export/…, /v2/agent/…): drop it, as in ${parsed.origin}${parsed.pathname.slice(0, -version[0].length)}`,
      });
      return z.NEVER;
    }
    return parsed;
  }
  ctx.addIssue({ code: 'custom', message: `${parsed.reason} (got "${withoutUserinfo(value)}")` });
  return z.NEVER;
});

/**
 * A URL as an error message may quote it: a user name and password before the host are
 * secrets the log must not show, however the rest of the value is written.
 */
function withoutUserinfo(value: string): string {
  return value.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#\s]*@/i,
    (_, scheme = '') => `${scheme}***@`,
  );
}

/** The prefix of the platform's admin API keys. */
const KEY_PREFIX = 'mint_';
/** The platform's other keys share it, with a longer prefix of their own. */
const OTHER_KEY_TYPES: readonly (readonly [prefix: string, kind: string])[] = [
  ['mint_dsc_', 'an assistant API key'],
  ['mint_us_', 'an Index API key'],
];

/** Never echo the value: it is a secret, even when malformed. */
const apiKey = text.transform((value, ctx) => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message: `${message} (value not shown)` });
    return z.NEVER;
  };
  if (value === '') {
    ctx.addIssue({ code: 'custom', message: API_KEY_REQUIRED });
    return z.NEVER;
  }
  if (/^(authorization:\s*)?bearer\s/i.test(value)) {
    return refuse(
      `starts with "${/^authorization:/i.test(value) ? 'Authorization: Bearer' : 'Bearer'}": drop it and give the key alone (${KEY_PREFIX}…); the Authorization header is added for you`,
    );
  }
  if (!/^[A-Za-z0-9]+_[A-Za-z0-9_.~+/=-]+$/.test(value) && !value.startsWith(KEY_PREFIX)) {
    return refuse(
      `is not an admin API key: expected ${KEY_PREFIX}<secret>, from the dashboard's API keys page`,
    );
  }
  if (!value.startsWith(KEY_PREFIX)) {
    const prefix = /^[A-Za-z0-9]+_(?:(?:live|test)_)?/.exec(value)?.[0] ?? '';
    return refuse(
      `starts with "${prefix}", not "${KEY_PREFIX}": it is a key of another service, not an admin API key of the docs platform; it was not sent anywhere. Create one on the dashboard's API keys page`,
    );
  }
  const other = OTHER_KEY_TYPES.find(([prefix]) => value.startsWith(prefix));
  if (other !== undefined) {
    return refuse(
      `starts with "${other[0]}", the prefix of ${other[1]}, which the admin API does not take; it was not sent anywhere. Use an admin API key (${KEY_PREFIX}…) from the dashboard's API keys page`,
    );
  }
  if (!/^[A-Za-z0-9_.~+/=-]+$/.test(value)) {
    return refuse(
      `is not an admin API key: expected ${KEY_PREFIX}<secret> with no spaces or line breaks`,
    );
  }
  return value;
});

const projectId = text.transform((value, ctx) => {
  // "." and ".." would be read as a path step of the request, not as a project.
  const pathStep = value === '.' || value === '..';
  if (
    value === '' ||
    value.length > 200 ||
    pathStep ||
    /[\s/\\?#%\u0000-\u001f\u007f]/.test(value)
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `must be the project identifier from the dashboard's API keys page (no slashes, whitespace or control characters, and not "." or ".."), got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }
  return value;
});

const prompt = z.string().transform((value, ctx) => {
  if (value.trim() === '') {
    ctx.addIssue({
      code: 'custom',
      message: 'must hold an instruction for the agent (at least 1 character)',
    });
    return z.NEVER;
  }
  if (value.length > MAX_PROMPT_CHARS) {
    ctx.addIssue({
      code: 'custom',
      message: `is ${value.length} characters long; the limit is ${MAX_PROMPT_CHARS}`,
    });
    return z.NEVER;
  }
  return value.trim();
});

/** Newline- or comma-separated. */
const list = z.string().transform((value) =>
  value
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

const exportPaths = list.transform((items, ctx) => {
  const bad = items.find((item) => /[\s\u0000-\u001f]/.test(item));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `entries must not contain whitespace, got "${bad}"` });
    return z.NEVER;
  }
  return items;
});

/**
 * An IPv6 address as the check names its host: `[fd00::5]`, bracketed and in its shortest
 * form, from `[fd00:0::5]:8443` or a bare `fd00::5`. Undefined when the entry is none.
 */
function ipv6Host(entry: string): string | undefined {
  const bracketed = /^\[([0-9a-f:.]+)\](:\d+)?$/i.exec(entry);
  const bare = /^[0-9a-f]*:[0-9a-f.:]*:[0-9a-f.:]*$/i.test(entry) ? entry : undefined;
  const address = bracketed?.[1] ?? bare;
  if (address === undefined) return undefined;
  try {
    return `${new URL(`http://[${address}]/`).hostname}${bracketed?.[2] ?? ''}`;
  } catch {
    return undefined;
  }
}

const allowedHosts = list.transform((items, ctx) => {
  const hosts: string[] = [];
  for (const item of items) {
    const host = /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(item) ? item.toLowerCase() : ipv6Host(item);
    if (host === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `entries must be hostnames such as cdn.example.com or *.example.com, or IPv6 addresses such as [fd00::5], got "${item}"`,
      });
      return z.NEVER;
    }
    hosts.push(host);
  }
  return hosts;
});

const artifactName = text.transform((value, ctx) => {
  if (/["*:<>?|\\/\r\n]/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `must not contain any of " : < > | * ? \\ / or newlines, got "${value}"`,
    });
    return z.NEVER;
  }
  return value;
});

const releaseVersion = text.transform((value, ctx) => {
  if (/[\u0000-\u001f]/.test(value) || value.length > 200) {
    ctx.addIssue({ code: 'custom', message: 'must be one line of at most 200 characters' });
    return z.NEVER;
  }
  return value;
});

const docsVersion = releaseVersion;

/** Ids an input takes: letters, digits, `.`, `_`, `-`, as the API's ids are written. */
export const INPUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** An id that ends up in a URL path: letters, digits, `.`, `_`, `-`. */
function identifier(example: string) {
  return text.transform((value, ctx) => {
    if (!INPUT_ID.test(value)) {
      ctx.addIssue({ code: 'custom', message: `must be ${example}, got "${value}"` });
      return z.NEVER;
    }
    return value;
  });
}

/** `none`, an https URL (of a manifest, or of a site serving one), or a path (resolved later). */
const compareWith = text.transform((value, ctx): CompareWith | string => {
  if (value === 'none') return { kind: 'none' };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  const parsed = parseServiceUrl(value);
  if (!(parsed instanceof URL)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be none, a path, or the https address of the live site or of its ${MANIFEST_NAME} (${parsed.reason}, got "${withoutUserinfo(value)}")`,
    });
    return z.NEVER;
  }
  // The site (`https://docs.example.com/`, or its home page `…/index.html`): its manifest
  // is served beside the pages.
  if (/\.html?$/i.test(parsed.pathname)) {
    parsed.pathname = parsed.pathname.replace(/[^/]*$/, MANIFEST_NAME);
  } else if (!/\.json$/i.test(parsed.pathname)) {
    parsed.pathname = `${parsed.pathname.replace(/\/?$/, '/')}${MANIFEST_NAME}`;
  }
  return { kind: 'url', url: parsed };
});

const maxRemovedPages = text.transform((value, ctx): RemovalLimit => {
  const count = /^\d+$/.exec(value);
  if (count && Number.isSafeInteger(Number(value))) return { pages: Number(value) };
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(value);
  if (percent && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  ctx.addIssue({
    code: 'custom',
    message: percent
      ? `a share of the pages is at most 100%, got "${value}"`
      : `must be a number of pages such as 10, or a share such as 5% (at most 100%), got "${value}"`,
  });
  return z.NEVER;
});

/** The inputs, each with its schema; the key is the input name of action.yml. */
const schemas = {
  'api-key': apiKey,
  'base-url': baseUrl,
  command: enumOf(['export', 'agent'] as const),
  domain,
  'docs-version': docsVersion,
  'export-paths': exportPaths,
  download: boolean,
  path: text.min(1, 'must name a directory'),
  extract: boolean,
  overwrite: boolean,
  'artifact-name': artifactName,
  timeout: duration(
    1000,
    72 * 3_600_000,
    'a duration from 1s to 72h such as 90s, 15m, 1h or plain seconds',
  ),
  'poll-interval': duration(
    500,
    15 * 60_000,
    '"auto" or a duration from 0.5s to 15m such as 5s',
    true,
  ),
  'request-timeout': duration(100, 10 * 60_000, 'a duration from 0.1s to 10m such as 30s'),
  'helm-values-file': text,
  'release-version': releaseVersion,
  'deployment-type': enumOf(['cloud', 'client-hosted', 'air-gapped'] as const),
  'mask-bundle-url': boolean,
  'show-bundle-url': boolean,
  'project-id': projectId,
  'job-id': identifier(
    'an export job id such as se_3f9a2c1b8e7d4a06 (the job-id output of an earlier run)',
  ),
  'agent-job-id': identifier('an agent job id (the agent-job-id output of an earlier run)'),
  prompt,
  wait: boolean,
  'max-extract-size': positiveInteger('a size such as 20GB, 512MB or a byte count', parseByteSize),
  'max-extract-files': positiveInteger('a whole number of files such as 500000', (v) =>
    /^\d+$/.test(v) ? Number(v) : undefined,
  ),
  'max-extract-ratio': text.transform((value, ctx) => {
    const n = /^\d{1,6}$/.test(value) ? Number(value) : undefined;
    if (n === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a whole number such as 100 (0 turns the ratio ceiling off), got "${value}"`,
      });
      return z.NEVER;
    }
    return n;
  }),
  'allowed-hosts': allowedHosts,
  'browser-check': browserCheck,
  'broken-links': enumOf(['warn', 'fail', 'off'] as const),
  'compare-with': compareWith,
  'max-removed-pages': maxRemovedPages,
  'changes-file': text,
} as const;

export type InputName = keyof typeof schemas;
export const INPUT_NAMES = Object.keys(schemas) as InputName[];

type Parsed = { [K in InputName]?: z.output<(typeof schemas)[K]> };

/**
 * Turns raw inputs into a typed Config, or throws one InputError naming every bad input
 * and the form it accepts. Makes no network call.
 */
export function parseConfig(raw: RawInputs, context: ConfigContext): Config {
  const problems: { input: string; message: string }[] = [];
  const values: Parsed = {};
  // A blank input counts as absent, except a prompt of only whitespace (or an empty one
  // given on purpose), which is refused.
  const given = (name: InputName) => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (value === '') return name === 'prompt' && context.promptGiven ? value : undefined;
    return name === 'prompt' || value.trim() !== '' ? value : undefined;
  };

  for (const name of INPUT_NAMES) {
    const value = given(name) ?? (DEFAULTS as RawInputs)[name];
    if (value === undefined) continue;
    const result = schemas[name].safeParse(value);
    if (result.success) (values as Record<string, unknown>)[name] = result.data;
    else problems.push({ input: name, message: result.error.issues[0]?.message ?? 'is invalid' });
  }

  const require = (name: InputName, message: string) => {
    if (given(name) === undefined && !problems.some((p) => p.input === name)) {
      problems.push({ input: name, message });
    }
  };
  require('api-key', API_KEY_REQUIRED);
  if (values.command === 'agent') {
    require('project-id', 'is required for command "agent" (the project identifier from the dashboard)');
    if (given('agent-job-id') === undefined) {
      require('prompt', 'is required for command "agent": the instruction for the agent (or set `agent-job-id` to follow an existing job)');
    }
    // Taken for the agent job's id, it would be ignored, and a follow-up become a new job.
    if (given('job-id') !== undefined) {
      problems.push({
        input: 'job-id',
        message:
          'is the id of an export job (command "export"): to follow an agent job, or send it a follow-up, set `agent-job-id`',
      });
    }
  } else if (values.command === 'export') {
    require('domain', 'is required for command "export": the documentation domain, e.g. docs.example.com');
    if (given('agent-job-id') !== undefined) {
      problems.push({
        input: 'agent-job-id',
        message:
          'is the id of an agent job: set `command: agent` to follow it, or send it a follow-up',
      });
    }
  }

  const platform = context.platform ?? process.platform;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const workspace = paths.resolve(context.workspace);
  const protection: ProtectedContext = {
    platform,
    workspace,
    ...(context.home ? { home: paths.resolve(context.home) } : {}),
    runnerDirs: (context.runnerDirs ?? []).map((dir) => paths.resolve(dir)),
  };
  /** Relative to the workspace; `~` and `~/…` to the home directory; never a literal `~`. */
  const resolvePath = (name: InputName, value: string): string | undefined => {
    const tilde = /^~(?=$|[/\\])/.exec(value);
    if (value.startsWith('~') && !tilde) {
      problems.push({
        input: name,
        message: `"${value}" starts with ~ followed by a user name, which this action does not expand: write the full path`,
      });
      return undefined;
    }
    if (tilde && !protection.home) {
      problems.push({
        input: name,
        message: `"${value}" starts with ~, but the home directory is unknown here: write the full path`,
      });
      return undefined;
    }
    return tilde
      ? paths.resolve(protection.home as string, `.${value.slice(1)}`)
      : paths.resolve(workspace, value);
  };
  const outputPath = values.path !== undefined ? resolvePath('path', values.path) : undefined;
  // Keeping the archive as a file writes into `path` without replacing it.
  const replacesPath = values.download !== false && values.extract !== false;
  if (outputPath !== undefined && values.command !== 'agent') {
    const why = replacesPath ? protectedReason(outputPath, protection) : undefined;
    if (why) {
      problems.push({
        input: 'path',
        message: `"${values.path}" (${outputPath}) is never replaced: ${why}; choose a directory of its own, such as a new folder in the workspace`,
      });
    }
  }
  /** A file the action writes: resolved like path, and never inside a system directory. */
  const fileToWrite = (name: 'helm-values-file' | 'changes-file'): string | undefined => {
    const given = values[name];
    if (given === undefined || given === '') return undefined;
    const file = resolvePath(name, given);
    const system = file === undefined ? undefined : systemTreeOf(file, platform);
    if (system) {
      problems.push({
        input: name,
        message: `"${given}" (${file}) is inside ${system}, a system directory: choose a file in the workspace`,
      });
    } else if (
      file !== undefined &&
      outputPath !== undefined &&
      replacesPath &&
      contains(outputPath, file, platform)
    ) {
      problems.push({
        input: name,
        message: `"${given}" (${file}) is inside \`path\` (${outputPath}), which the export replaces as a whole: choose a file outside it`,
      });
    }
    return file;
  };
  const helmValuesFile = fileToWrite('helm-values-file');
  const changesFile = fileToWrite('changes-file');
  const compareGiven = values['compare-with'];
  let compareWithValue: CompareWith = { kind: 'path' };
  if (typeof compareGiven === 'string') {
    const resolved = resolvePath('compare-with', compareGiven);
    if (resolved !== undefined)
      compareWithValue = { kind: 'file', path: resolved, given: compareGiven };
  } else if (compareGiven !== undefined) compareWithValue = compareGiven;

  if (problems.length > 0) throw new InputError(problems);

  const connection: ConnectionConfig = {
    apiKey: values['api-key'] as string,
    baseUrl: values['base-url'] as URL,
    timeoutMs: values.timeout as number,
    pollInterval: values['poll-interval'] as PollInterval,
    requestTimeoutMs: values['request-timeout'] as number,
  };

  if (values.command === 'agent') {
    return {
      command: 'agent',
      ...connection,
      projectId: values['project-id'] as string,
      ...(values.prompt !== undefined ? { prompt: values.prompt } : {}),
      ...(values['agent-job-id'] ? { jobId: values['agent-job-id'] } : {}),
      wait: values.wait as boolean,
    };
  }
  const releaseVersionValue = values['release-version'] || context.defaultReleaseVersion;
  return {
    command: 'export',
    ...connection,
    domain: values.domain as string,
    ...(values['docs-version'] ? { docsVersion: values['docs-version'] } : {}),
    ...(values['export-paths']?.length ? { exportPaths: values['export-paths'] } : {}),
    ...(values['project-id'] ? { projectId: values['project-id'] } : {}),
    ...(values['job-id'] ? { jobId: values['job-id'] } : {}),
    download: values.download as boolean,
    extract: values.extract as boolean,
    path: outputPath as string,
    pathGiven: values.path as string,
    overwrite: values.overwrite as boolean,
    protection,
    ...(values['artifact-name'] ? { artifactName: values['artifact-name'] } : {}),
    ...(helmValuesFile ? { helmValuesFile } : {}),
    ...(releaseVersionValue ? { releaseVersion: releaseVersionValue } : {}),
    deploymentType: values['deployment-type'] as DeploymentType,
    maskBundleUrl: values['mask-bundle-url'] as boolean,
    showBundleUrl: values['show-bundle-url'] as boolean,
    limits: {
      maxBytes: values['max-extract-size'] as number,
      maxEntries: values['max-extract-files'] as number,
      maxRatio: values['max-extract-ratio'] as number,
    },
    allowedHosts: values['allowed-hosts'] ?? [],
    browserCheck: values['browser-check'] as 'auto' | 'true' | 'false',
    brokenLinks: values['broken-links'] as 'warn' | 'fail' | 'off',
    compareWith: compareWithValue,
    ...(values['max-removed-pages'] ? { maxRemovedPages: values['max-removed-pages'] } : {}),
    ...(changesFile ? { changesFile } : {}),
  };
}
