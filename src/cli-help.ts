import {
  AGENT_FLAGS,
  CONNECTION_FLAGS,
  type CommandName,
  EXPORT_FLAGS,
  type FlagSpec,
  OUTPUT_FLAGS,
  outputFlagsOf,
} from './cli-flags.js';

/** Help is written for an 80-column terminal, whatever the width of the one in use. */
const WIDTH = 80;
const FLAG_COLUMN = 26;

/** Words wrapped to `width`, every line but the first indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function flagLabel(flag: FlagSpec): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  if (flag.value) return `${short}--${flag.name} <${flag.value}>`;
  return flag.input ? `${short}--[no-]${flag.name}` : `${short}--${flag.name}`;
}

function section(title: string, rows: [string, string][]): string {
  const body = rows.map(([label, text]) => {
    const room = WIDTH - FLAG_COLUMN;
    if (label.length > FLAG_COLUMN - 4) {
      return `  ${label}\n${' '.repeat(FLAG_COLUMN)}${wrap(text, room, FLAG_COLUMN)}`;
    }
    return `  ${label.padEnd(FLAG_COLUMN - 2)}${wrap(text, room, FLAG_COLUMN)}`;
  });
  return `${title}\n${body.join('\n')}`;
}

function flagSection(title: string, flags: readonly FlagSpec[]): string {
  return section(
    title,
    flags.map((flag) => [flagLabel(flag), flag.help]),
  );
}

const ENVIRONMENT = section('ENVIRONMENT', [
  ['ADMIN_API_KEY', 'the key, when --api-key is not given'],
  [
    'STATIC_EXPORT_<FLAG>',
    'any flag but --help and --version, e.g. STATIC_EXPORT_DOMAIN, STATIC_EXPORT_JSON=true; the flag given wins over it',
  ],
  ['NO_COLOR, FORCE_COLOR', 'turn colors off or on'],
]);

/** How values are given: the rules a flag's own line cannot say. */
function flagValues(command: CommandName): string {
  const lists = [...(command === 'export' ? EXPORT_FLAGS : AGENT_FLAGS), ...OUTPUT_FLAGS]
    .filter((flag) => flag.multiple)
    .map((flag) => `--${flag.name}`);
  return section('FLAG VALUES', [
    [
      '--<flag>=<value>',
      `a value that starts with a dash: ${command === 'agent' ? '--prompt=--fix-typos' : '--path=-draft'}`,
    ],
    [lists.join(', '), 'repeated or comma-separated, the values add up'],
    ['other flags', 'once each: given twice with different values, an error'],
    ['--[no-]<switch>', 'the last one counts: --json … --no-json turns it off'],
    ['--', `ends the flags: the words after it are arguments, dash or not; ${command} takes none`],
  ]);
}

const EXIT_CODES = section('EXIT CODES', [
  ['0', 'done'],
  ['1', 'failed: job failed, key refused, unsafe archive, timeout…'],
  ['2', 'bad usage: an unknown flag or an invalid value'],
  ['130, 143, 129', 'cancelled by Ctrl-C, SIGTERM or SIGHUP (128 + the signal number)'],
]);

function examples(lines: string[]): string {
  return `EXAMPLES\n${lines.map((line) => (line === '' ? '' : `  ${line}`)).join('\n')}`;
}

export function usage(command?: CommandName): string {
  if (command === 'export') {
    return [
      'Start a static export, wait for it, then download, verify and extract it.',
      '',
      'USAGE\n  static-export export --domain <host> [flags]',
      '',
      flagSection('FLAGS', EXPORT_FLAGS),
      '',
      flagSection('CONNECTION FLAGS', CONNECTION_FLAGS),
      '',
      flagSection('OUTPUT FLAGS', outputFlagsOf(command)),
      '',
      flagValues(command),
      '',
      examples([
        '$ export ADMIN_API_KEY=mint_…',
        '$ static-export export --domain docs.example.com --path site',
        '',
        '# only the link, then a fresh one later from the same job',
        '$ job=$(static-export export --domain docs.example.com --no-download \\',
        '    --output job-id)',
        '$ static-export export --domain docs.example.com --job-id "$job" \\',
        '    --no-download --output bundle-url',
        '',
        '$ static-export export --domain docs.example.com --json > export.json',
      ]),
      '',
      ENVIRONMENT,
      '',
      EXIT_CODES,
    ].join('\n');
  }
  if (command === 'agent') {
    return [
      'Create an agent job (or follow an existing one, sending it a follow-up prompt),',
      'wait for it, and print the pull request it opens.',
      '',
      'USAGE\n  static-export agent --project-id <id> --prompt <text> [flags]\n  static-export agent --project-id <id> --agent-job-id <id> [--prompt <text>]\n                      [flags]',
      '',
      flagSection('FLAGS', [
        ...AGENT_FLAGS,
        ...CONNECTION_FLAGS.filter((f) => f.name === 'project-id'),
      ]),
      '',
      flagSection(
        'CONNECTION FLAGS',
        CONNECTION_FLAGS.filter((f) => f.name !== 'project-id'),
      ),
      '',
      flagSection('OUTPUT FLAGS', outputFlagsOf(command)),
      '',
      flagValues(command),
      '',
      examples([
        '$ static-export agent --project-id my-docs --prompt "Fix the broken links"',
        '$ git log -1 --format=%B | static-export agent --project-id my-docs \\',
        '    --prompt - --output pr-link',
      ]),
      '',
      ENVIRONMENT,
      '',
      EXIT_CODES,
    ].join('\n');
  }
  return [
    'Publish static exports of a documentation site and drive agent jobs.',
    '',
    'USAGE\n  static-export <command> [flags]',
    '',
    section('COMMANDS', [
      ['export', 'static export: start, wait, download, verify, extract'],
      ['agent', 'agent job: prompt → pull request'],
      ['help <command>', 'flags and examples of a command'],
    ]),
    '',
    section('FLAGS', [
      ['-h, --help', 'show help'],
      ['-V, --version', 'print the version'],
    ]),
    '',
    examples([
      '$ export ADMIN_API_KEY=mint_…',
      '$ static-export export --domain docs.example.com',
      '$ static-export help export',
    ]),
    '',
    EXIT_CODES,
  ].join('\n');
}
