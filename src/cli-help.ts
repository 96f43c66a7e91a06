/** Flags of each command: every input of action.yml, under the same name. */
export const COMMON_FLAGS: [string, string][] = [
  ['--api-key <key>', 'admin API key (mint_…); default: $ADMIN_API_KEY'],
  ['--base-url <url>', 'API base (default https://api.mintlify.com); http only to loopback'],
  ['--timeout <duration>', 'limit for the whole run: 90s, 15m, 1h or seconds (default 30m)'],
  ['--poll-interval <auto|duration>', 'auto (adaptive) or a fixed pace such as 5s (default auto)'],
  [
    '--request-timeout <duration>',
    'longest wait for an answer or silence in a download (default 30s)',
  ],
  ['--json', 'print the outputs as one JSON object on stdout (logs go to stderr)'],
  ['--verbose', 'print request-level debug lines (never the key)'],
  ['-h, --help', 'show this help'],
];

export const EXPORT_FLAGS: [string, string][] = [
  ['--domain <host>', 'documentation domain, a bare hostname such as docs.example.com (required)'],
  ['--job-id <id>', 'reuse this export job (e.g. for a fresh link) instead of starting one'],
  ['--docs-version <v>', "sent as the start body's version"],
  ['--export-paths <list>', "comma- or newline-separated, sent as the start body's paths"],
  ['--project-id <id>', 'use the project-scoped export endpoints'],
  ['--download <true|false>', 'false: stop after the bundle link (default true)'],
  ['--path <dir>', 'directory that receives the site, or the archive (default static-export)'],
  ['--extract <true|false>', 'false: keep the archive file in --path (default true)'],
  ['--overwrite <true|false>', 'true: replace a --path this tool did not write (default false)'],
  ['--helm-values-file <file>', 'write a Helm values file with the bundle link'],
  ['--release-version <v>', 'staticExport.version in that file (default: the job id)'],
  ['--deployment-type <type>', 'cloud, client-hosted or air-gapped (default cloud)'],
  [
    '--browser-check <auto|true|false>',
    'load a sample of pages in headless Chromium, requests outside blocked (default auto)',
  ],
  ['--broken-links <warn|fail|off>', 'internal links that lead to no file (default warn)'],
  ['--allowed-hosts <list>', 'hosts the air-gapped check accepts (cdn.example.com, *.example.com)'],
  ['--mask-bundle-url <true|false>', 'hide the bundle link in the log (default false)'],
  ['--max-extract-size <size>', 'refuse archives that expand past this (default 20GB)'],
  ['--max-extract-files <n>', 'refuse archives with more entries (default 500000)'],
  [
    '--max-extract-ratio <n>',
    'refuse archives expanding past n times their size, over 1 GiB (default 100)',
  ],
  ['--artifact-name <name>', 'workflow artifact name (GitHub Actions only)'],
];

export const AGENT_FLAGS: [string, string][] = [
  ['--project-id <id>', 'project identifier from the dashboard (required)'],
  ['--prompt <text>', 'instruction for the agent (required; "-" reads it from stdin)'],
  ['--wait <true|false>', 'false: return right after the job is created (default true)'],
];

function block(title: string, flags: [string, string][]): string {
  const width = Math.max(...flags.map(([flag]) => flag.length)) + 2;
  return `${title}:\n${flags.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`).join('\n')}`;
}

export function usage(command?: 'export' | 'agent'): string {
  const exitCodes =
    'Exit codes: 0 done, 1 failed (job failed, key refused, unsafe archive, timeout…), 2 bad usage, 130 cancelled.';
  if (command === 'export') {
    return [
      'Usage: static-export export --domain <host> [options]',
      '',
      'Start a static export, wait for it, and download, verify and extract the bundle.',
      '',
      block('Export options', EXPORT_FLAGS),
      '',
      block('Common options', COMMON_FLAGS),
      '',
      exitCodes,
    ].join('\n');
  }
  if (command === 'agent') {
    return [
      'Usage: static-export agent --project-id <id> --prompt <text> [options]',
      '',
      'Create an agent job, follow it, and print the pull request link.',
      '',
      block('Agent options', AGENT_FLAGS),
      '',
      block('Common options', COMMON_FLAGS),
      '',
      exitCodes,
    ].join('\n');
  }
  return [
    'Usage: static-export <command> [options]',
    '',
    'Commands:',
    '  export   static export of a documentation site: start, wait, download, extract',
    '  agent    agent job: prompt → pull request link',
    '',
    'Run `static-export <command> --help` for the options of a command.',
    exitCodes,
  ].join('\n');
}

/** Every flag name the CLI accepts for inputs, without the leading dashes. */
export function inputFlagNames(): string[] {
  return [...COMMON_FLAGS, ...EXPORT_FLAGS, ...AGENT_FLAGS]
    .map(([flag]) => /--([a-z-]+)/.exec(flag)?.[1] as string)
    .filter((name) => !['json', 'verbose', 'help'].includes(name));
}
