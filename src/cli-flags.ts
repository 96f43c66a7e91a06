import { parseArgs } from 'node:util';
import { Redactor } from './redact.js';
import { OUTPUT_NAMES, type OutputName, outputsOf } from './report.js';

export type CommandName = 'export' | 'agent';
export const COMMANDS: readonly CommandName[] = ['export', 'agent'];

/** One flag of the command line. Input flags carry the name of an action.yml input. */
export interface FlagSpec {
  name: string;
  /** Placeholder of the value; absent for a switch (`--json`, `--no-download`). */
  value?: string;
  short?: string;
  help: string;
  /** The commands that take it. */
  commands: readonly CommandName[];
  /** An action input, passed to the core as a string. */
  input: boolean;
  /** May be given more than once. */
  multiple?: boolean;
}

const BOTH = COMMANDS;
const EXPORT_ONLY: readonly CommandName[] = ['export'];
const AGENT_ONLY: readonly CommandName[] = ['agent'];

const input = (
  name: string,
  value: string | undefined,
  help: string,
  commands: readonly CommandName[],
): FlagSpec => ({ name, ...(value ? { value } : {}), help, commands, input: true });

/** A list input: given more than once, the values add up (`--allowed-hosts a --allowed-hosts b`). */
const list = (name: string, help: string, commands: readonly CommandName[]): FlagSpec => ({
  ...input(name, 'list', help, commands),
  multiple: true,
});

/** Flags of `export` that are action inputs, in the order the help lists them. */
export const EXPORT_FLAGS: readonly FlagSpec[] = [
  input('domain', 'host', 'documentation domain, a bare hostname (required)', EXPORT_ONLY),
  input('path', 'dir', 'directory that receives the site (default static-export)', EXPORT_ONLY),
  input('job-id', 'id', 'reuse this export job, e.g. for a fresh link', EXPORT_ONLY),
  input('docs-version', 'v', "sent as the start body's version", EXPORT_ONLY),
  list('export-paths', "comma- or newline-separated, sent as the start body's paths", EXPORT_ONLY),
  input('download', undefined, '--no-download stops after the bundle link', EXPORT_ONLY),
  input('extract', undefined, '--no-extract keeps the archive file in --path', EXPORT_ONLY),
  input('overwrite', undefined, 'replace a --path this tool did not write', EXPORT_ONLY),
  input('helm-values-file', 'file', 'write a Helm values file with the bundle link', EXPORT_ONLY),
  input('release-version', 'v', 'staticExport.version in that file (default: job id)', EXPORT_ONLY),
  input(
    'deployment-type',
    'type',
    'cloud, client-hosted or air-gapped (default cloud)',
    EXPORT_ONLY,
  ),
  list('allowed-hosts', 'hosts the air-gapped check accepts (*.example.com)', EXPORT_ONLY),
  input('browser-check', 'mode', 'auto, true or false: load pages in Chromium', EXPORT_ONLY),
  input('broken-links', 'mode', 'warn, fail or off: links to no file (default warn)', EXPORT_ONLY),
  input(
    'mask-bundle-url',
    undefined,
    'hide the bundle link in the log (not in --output, --json)',
    EXPORT_ONLY,
  ),
  input(
    'show-bundle-url',
    undefined,
    'show the whole bundle link in the outputs table (in the job summary on GitHub)',
    EXPORT_ONLY,
  ),
  input(
    'max-extract-size',
    'size',
    'refuse archives that expand past it (default 20GB)',
    EXPORT_ONLY,
  ),
  input(
    'max-extract-files',
    'n',
    'refuse archives with more entries (default 500000)',
    EXPORT_ONLY,
  ),
  input(
    'max-extract-ratio',
    'n',
    'refuse archives expanding past n times their size (default 100)',
    EXPORT_ONLY,
  ),
  input('artifact-name', 'name', 'workflow artifact name (GitHub Actions only)', EXPORT_ONLY),
  input(
    'compare-with',
    'url|path|none',
    'report changes against the live site, a manifest (default: --path)',
    EXPORT_ONLY,
  ),
  input('max-removed-pages', 'n|n%', 'fail when more pages would be removed', EXPORT_ONLY),
  input('changes-file', 'file', 'write the change report there (JSON)', EXPORT_ONLY),
];

/** Flags of `agent` that are action inputs. */
export const AGENT_FLAGS: readonly FlagSpec[] = [
  input('prompt', 'text', 'instruction for the agent (- reads stdin until it ends)', AGENT_ONLY),
  input('agent-job-id', 'id', 'follow this job; with --prompt, send it as a follow-up', AGENT_ONLY),
  input(
    'wait',
    undefined,
    '--no-wait returns once the job is created, the follow-up sent or the job read',
    AGENT_ONLY,
  ),
];

/** Inputs both commands take. */
export const CONNECTION_FLAGS: readonly FlagSpec[] = [
  input('project-id', 'id', 'project identifier (required for agent)', BOTH),
  input('api-key', 'key', 'admin API key (- reads stdin); prefer $ADMIN_API_KEY', BOTH),
  input('base-url', 'url', 'API base (default https://api.mintlify.com)', BOTH),
  input('timeout', 'duration', 'limit for the whole run: 90s, 15m, 1h (default 30m)', BOTH),
  input('poll-interval', 'duration', 'auto, or a fixed pace such as 5s (default auto)', BOTH),
  input('request-timeout', 'duration', 'longest wait for one answer (default 30s)', BOTH),
];

/** How results are printed; not action inputs. */
export const OUTPUT_FLAGS: readonly FlagSpec[] = [
  { name: 'json', help: 'print the outputs as one JSON object', commands: BOTH, input: false },
  {
    name: 'output',
    value: 'name',
    help: 'print only these outputs, one value a line',
    commands: BOTH,
    input: false,
    multiple: true,
  },
  {
    name: 'quiet',
    short: 'q',
    help: 'print only warnings, errors and results; not with --verbose',
    commands: BOTH,
    input: false,
  },
  {
    name: 'verbose',
    help: 'print request-level debug lines too; not with --quiet',
    commands: BOTH,
    input: false,
  },
  { name: 'help', short: 'h', help: 'show help for the command', commands: BOTH, input: false },
  { name: 'version', short: 'V', help: 'print the version', commands: BOTH, input: false },
];

/** The output a command's help gives `--output` as an example of. */
const OUTPUT_EXAMPLE: Record<CommandName, OutputName> = { export: 'job-id', agent: 'pr-link' };

/** OUTPUT_FLAGS as `command`'s help lists them: `--output` with one of its own outputs. */
export function outputFlagsOf(command: CommandName): FlagSpec[] {
  return OUTPUT_FLAGS.map((flag) =>
    flag.name === 'output'
      ? { ...flag, help: `${flag.help}, e.g. --output ${OUTPUT_EXAMPLE[command]}` }
      : flag,
  );
}

export const ALL_FLAGS: readonly FlagSpec[] = [
  ...EXPORT_FLAGS,
  ...AGENT_FLAGS,
  ...CONNECTION_FLAGS,
  ...OUTPUT_FLAGS,
];

/** Every flag name the CLI accepts for inputs, without the leading dashes. */
export function inputFlagNames(): string[] {
  return ALL_FLAGS.filter((flag) => flag.input).map((flag) => flag.name);
}

/** The flags that set inputs, for `asCommandLine`: every log line goes through it. */
let inputFlags: ReadonlySet<string> | undefined;

/**
 * A message as the command line reads it. Messages name inputs in backticks, as a
 * workflow spells them (`max-extract-files`, `broken-links: warn`); here they become the
 * flags (`--max-extract-files`, `--broken-links warn`), and the key the variable it is
 * best given in. Anything else in backticks is left as it is.
 */
export function asCommandLine(message: string): string {
  const flags = (inputFlags ??= new Set(inputFlagNames()));
  return message.replace(
    /`([a-z][a-z0-9-]*)(?:: ([^`]*))?`/g,
    (whole, name: string, value: string | undefined) => {
      // The key is best given in the environment, never on a command line.
      if (name === 'api-key') return '`ADMIN_API_KEY`';
      if (!flags.has(name)) return whole;
      return value === undefined ? `\`--${name}\`` : `\`--${name} ${value}\``;
    },
  );
}

const ENVIRONMENT_PREFIX = 'STATIC_EXPORT_';
/** Flags no variable sets: a variable left in a shell would turn every run into help. */
const COMMAND_LINE_ONLY = ['help', 'version'];
/** Variables of the prefix that are no flag: the browser of the readiness check. */
const OTHER_VARIABLES = ['STATIC_EXPORT_BROWSER'];

/** `STATIC_EXPORT_DOMAIN` for `--domain`. */
export function environmentName(flag: string): string {
  return `${ENVIRONMENT_PREFIX}${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** `--prompt -` or `STATIC_EXPORT_PROMPT=-`: how `-`, which reads stdin, was given. */
function stdinForm(source: string): string {
  return source.startsWith('--') ? `${source} -` : `${source}=-`;
}

/** What the command line asks for. */
export type CliRequest =
  | { kind: 'help'; command?: CommandName }
  | { kind: 'version' }
  | ({ kind: 'run' } & RunRequest)
  | {
      kind: 'usage-error';
      message: string;
      command?: CommandName;
      json: boolean;
      /** Nothing was asked for: show the commands. */
      bare?: boolean;
    };

export interface RunRequest {
  command: CommandName;
  /** Action inputs as strings, from flags, then STATIC_EXPORT_* variables, then ADMIN_API_KEY. */
  inputs: Record<string, string>;
  /** Where each input came from (`--domain`, `STATIC_EXPORT_DOMAIN`), for messages. */
  sources: Record<string, string>;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  /** Outputs to print one per line instead of the usual result. */
  print: OutputName[];
  /** STATIC_EXPORT_* variables that set nothing (`STATIC_EXPORT_DOMIAN`), with a guess. */
  unknownVariables: string[];
  /** The input `-` reads from stdin, as the user gave it: `--prompt -`, `ADMIN_API_KEY=-`. */
  fromStdin?: { input: 'api-key' | 'prompt'; asGiven: string };
}

class UsageError extends Error {}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

function booleanWord(value: string): boolean | undefined {
  return BOOLEAN_WORDS[value.trim().toLowerCase()];
}

/**
 * Turns argv and the environment into a request. node's parseArgs splits the arguments
 * (short groups, `=`, `--`); this adds what it leaves to its caller: suggestions for
 * mistyped names, flags that belong to the other command, `--flag true|false` for
 * switches, and STATIC_EXPORT_<FLAG> variables.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  /** Stdin is a terminal: a person at the keyboard, not a pipe. */
  stdinIsTerminal = false,
): CliRequest {
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      ALL_FLAGS.map((flag) => [
        flag.name,
        {
          type: flag.value ? ('string' as const) : ('boolean' as const),
          ...(flag.short ? { short: flag.short } : {}),
        },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    allowNegative: true,
    tokens: true,
  });
  const byName = new Map(ALL_FLAGS.map((flag) => [flag.name, flag]));
  /** Words right after a switch: its value when true or false (`--download false`). */
  const switchValues = new Set<number>();
  /** Any other word right after a known switch (`--download maybe`), with the switch. */
  const afterSwitch = new Map<number, { name: string; rawName: string }>();
  for (const [at, token] of tokens.entries()) {
    const next = tokens[at + 1];
    if (
      token.kind === 'option' &&
      byName.get(token.name)?.value === undefined &&
      token.value === undefined &&
      next?.kind === 'positional' &&
      next.index === token.index + 1
    ) {
      if (booleanWord(next.value) !== undefined) switchValues.add(at + 1);
      else if (byName.has(token.name)) afterSwitch.set(at + 1, token);
    }
  }
  const positionalAts = tokens.flatMap((token, at) =>
    token.kind === 'positional' && !switchValues.has(at) ? [at] : [],
  );
  const positionals = positionalAts.map((at) => positionalAt(tokens, at) as string);
  /** What the last `--<name>` on the command line sets its switch to, if it is there. */
  const lastSwitch = (name: string): boolean | undefined => {
    const at = tokens.findLastIndex((t) => t.kind === 'option' && t.name === name);
    const token = tokens[at];
    if (token?.kind !== 'option') return undefined;
    if (token.rawName.startsWith('--no-')) return false;
    const written =
      token.value ?? (switchValues.has(at + 1) ? (positionalAt(tokens, at + 1) as string) : 'true');
    return booleanWord(written) === true;
  };
  // For a usage error, before the flags are checked: the last --json, --no-json,
  // --json=false or --json false on the command line, else STATIC_EXPORT_JSON unless
  // --output on the command line asks for bare values.
  const jsonRequested =
    lastSwitch('json') ??
    (!tokens.some((t) => t.kind === 'option' && t.name === 'output') &&
      booleanWord(env[environmentName('json')] ?? '') === true);
  // Help wins over any mistake on the line, as in other tools: `export --domian x --help`
  // is a person asking how to write it. `--path --help` too, where --help lost its place.
  const helpRequested =
    lastSwitch('help') === true ||
    tokens.some(
      (t) =>
        t.kind === 'option' &&
        !t.inlineValue &&
        byName.get(t.name)?.value !== undefined &&
        (t.value === '--help' || t.value === '-h'),
    );
  const [first, ...rest] = positionals;
  const command = COMMANDS.find((name) => name === first);

  try {
    const given = new Map<string, string[]>();
    const switches = new Map<string, boolean>();
    for (const [at, token] of tokens.entries()) {
      if (token.kind !== 'option') continue;
      const flag = byName.get(token.name);
      const shown = token.rawName.startsWith('--') ? token.rawName : `-${token.name}`;
      // `--no-download=false`: parseArgs negates only a bare --no-<switch>.
      const negated = byName.get(token.name.replace(/^no-/, ''));
      if (flag === undefined && token.name.startsWith('no-') && negated !== undefined) {
        throw new UsageError(
          negated.value === undefined
            ? `${shown} takes no value, got "${token.value ?? ''}"`
            : `${shown}: --${negated.name} takes a value, not a --no- form`,
        );
      }
      // The action's `command` input is the subcommand here, not a flag.
      if (flag === undefined && token.name === 'command') {
        throw new UsageError(
          `unknown flag ${shown}: the command is the first word (static-export export … or static-export agent …)`,
        );
      }
      if (flag === undefined) {
        const names = ALL_FLAGS.filter((f) => !command || f.commands.includes(command)).map(
          (f) => `--${f.name}`,
        );
        const guess = closest(token.rawName.replace(/^--no-/, '--'), names);
        throw new UsageError(`unknown flag ${shown}${guess ? `: did you mean ${guess}?` : ''}`);
      }
      if (command && !flag.commands.includes(command)) {
        const owner = flag.commands.join(' and ');
        throw new UsageError(`--${flag.name} is a flag of \`${owner}\`, not of \`${command}\``);
      }
      if (flag.value !== undefined) {
        if (token.rawName.startsWith('--no-')) {
          throw new UsageError(`${token.rawName}: --${flag.name} takes a value, not a --no- form`);
        }
        const value = token.value;
        const needsValue = `--${flag.name} needs a value: --${flag.name} <${flag.value}>`;
        if (value === undefined) throw new UsageError(needsValue);
        // parseArgs takes the next word whatever it is: `--path --json` lost its value, and
        // `--prompt --fix-typos` may be either; only the = form says which (node's strict mode).
        if (!token.inlineValue && readsAsFlag(value)) {
          const joined = `write --${flag.name}=${value}`;
          if (isFlagLike(value, byName)) {
            throw new UsageError(
              `${needsValue} (the next word, ${value}, is a flag; to give it as the value, ${joined})`,
            );
          }
          throw new UsageError(
            flag.name === 'api-key'
              ? '--api-key got a value that reads as a flag: to give it as the key, write --api-key=<key>'
              : `--${flag.name} got ${quoted(value)}, which reads as a flag: to give it as the value, ${joined}`,
          );
        }
        // The core reads a blank input as one left out (a workflow passes '' for those), so
        // `--agent-job-id "$ID"` with ID unset would start a new job. An empty prompt has
        // its own message (config.ts, promptGiven).
        if (value.trim() === '' && flag.name !== 'prompt') {
          throw new UsageError(
            `--${flag.name} is empty: give a value (--${flag.name} <${flag.value}>) or leave the flag out`,
          );
        }
        const earlier = given.get(flag.name)?.[0];
        // The one to keep cannot be told: the last may be a typo as well as a correction.
        if (!flag.multiple && earlier !== undefined && earlier !== value) {
          throw new UsageError(
            flag.name === 'api-key'
              ? '--api-key is given twice, with two different keys: give it once'
              : `--${flag.name} is given twice, as ${quoted(earlier)} and as ${quoted(value)}: give it once`,
          );
        }
        given.set(flag.name, [...(flag.multiple ? (given.get(flag.name) ?? []) : []), value]);
      } else {
        let value = !token.rawName.startsWith('--no-');
        const written =
          token.value ?? (switchValues.has(at + 1) ? positionalAt(tokens, at + 1) : undefined);
        if (written !== undefined) {
          const parsed = booleanWord(written);
          if (!value) throw new UsageError(`${token.rawName} takes no value, got "${written}"`);
          if (parsed === undefined) {
            throw new UsageError(
              `${token.rawName} takes true or false, got "${written}" (or write --${flag.name} / --no-${flag.name})`,
            );
          }
          value = parsed;
        }
        switches.set(flag.name, value);
      }
    }

    if (switches.get('version')) return { kind: 'version' };
    if (first === undefined) {
      if (switches.get('help')) return { kind: 'help' };
      throw new UsageError('no command given');
    }
    if (first === 'version') {
      if (rest.length === 0) return { kind: 'version' };
      throw new UsageError(`unexpected argument "${rest[0]}": version takes none`);
    }
    if (first === 'help') {
      const topic = rest[0];
      // `help help`, `help version`: the commands, which is all the help there is on them.
      if (topic === undefined) return { kind: 'help' };
      if ((topic === 'help' || topic === 'version') && rest.length === 1) return { kind: 'help' };
      const known = COMMANDS.find((name) => name === topic);
      if (!known) throw new UsageError(unknownCommand(topic));
      if (rest.length === 1) return { kind: 'help', command: known };
      throw new UsageError(
        `unexpected argument "${rest[1]}": help takes one command, e.g. static-export help ${known}`,
      );
    }
    if (command === undefined) throw new UsageError(unknownCommand(first));
    if (switches.get('help')) return { kind: 'help', command };
    if (rest.length > 0) {
      // `--download maybe`: a word right after a switch was meant as its value.
      const owner = afterSwitch.get(positionalAts[1] as number);
      if (owner !== undefined) {
        throw new UsageError(
          owner.rawName.startsWith('--no-')
            ? `${owner.rawName} takes no value, got "${rest[0]}"`
            : `${owner.rawName} takes true or false, got "${rest[0]}" (or write --${owner.name} / --no-${owner.name})`,
        );
      }
      const terminator = tokens.find((t) => t.kind === 'option-terminator');
      const word = tokens[positionalAts[1] as number];
      if (terminator !== undefined && word !== undefined && word.index > terminator.index) {
        throw new UsageError(
          `unexpected argument "${rest[0]}": words after -- are arguments, not flags, and ${command} takes none`,
        );
      }
      throw new UsageError(
        `unexpected argument "${rest[0]}": values are given with a flag, e.g. --domain docs.example.com`,
      );
    }

    const inputs: Record<string, string> = {};
    const sources: Record<string, string> = {};
    const fromEnvironment = (flag: FlagSpec): string | undefined => {
      const name = environmentName(flag.name);
      const value = env[name];
      if (value === undefined || value.trim() === '') return undefined;
      sources[flag.name] = name;
      return value;
    };
    const switchOf = (flag: FlagSpec): boolean => {
      const direct = switches.get(flag.name);
      if (direct !== undefined) return direct;
      const value = fromEnvironment(flag);
      if (value === undefined) return false;
      const parsed = booleanWord(value);
      if (parsed === undefined) {
        throw new UsageError(`${environmentName(flag.name)} must be true or false, got "${value}"`);
      }
      return parsed;
    };

    for (const flag of ALL_FLAGS) {
      if (!flag.input || !flag.commands.includes(command)) continue;
      if (flag.value === undefined && switches.has(flag.name)) {
        inputs[flag.name] = String(switches.get(flag.name));
        sources[flag.name] = `--${flag.name}`;
      } else if (given.has(flag.name)) {
        const values = given.get(flag.name) as string[];
        // A list input reads one entry a line; any other flag has its one value.
        inputs[flag.name] = flag.multiple ? values.join('\n') : (values[0] as string);
        sources[flag.name] = `--${flag.name}`;
      } else if (flag.value === undefined) {
        // A switch from the environment reads as its flag does: `1` and `0` too.
        if (fromEnvironment(flag) !== undefined) inputs[flag.name] = String(switchOf(flag));
      } else {
        const value = fromEnvironment(flag);
        if (value !== undefined) inputs[flag.name] = value;
      }
    }
    if (inputs['api-key'] === undefined && env.ADMIN_API_KEY?.trim()) {
      inputs['api-key'] = env.ADMIN_API_KEY;
      sources['api-key'] = 'ADMIN_API_KEY';
    }
    // `-` reads stdin, which holds one value: the key piped in, or the prompt.
    let fromStdin: RunRequest['fromStdin'];
    if (inputs.prompt === '-') {
      fromStdin = { input: 'prompt', asGiven: stdinForm(sources.prompt ?? '--prompt') };
    }
    if (inputs['api-key'] === '-') {
      if (inputs.prompt === '-') {
        throw new UsageError(
          '--api-key - and --prompt - cannot both read stdin: give the key in ADMIN_API_KEY',
        );
      }
      const asGiven = stdinForm(sources['api-key'] ?? '--api-key');
      fromStdin = { input: 'api-key', asGiven };
      // Read from a terminal, the key would show on the screen as it is typed.
      if (stdinIsTerminal) {
        throw new UsageError(
          `${asGiven} reads the key from a pipe, and stdin is a terminal, where it would show as it is typed: set ADMIN_API_KEY to the key, or pipe it in (printf '%s' "$KEY" | static-export ${command} … --api-key -)`,
        );
      }
      sources['api-key'] = 'stdin';
    }

    const outputFlag = byName.get('output') as FlagSpec;
    // `--output job-id,status` reads as STATIC_EXPORT_OUTPUT=job-id,status does.
    const names = (value: string) => value.split(/[\s,]+/).filter((name) => name !== '');
    for (const value of given.get('output') ?? []) {
      if (names(value).length === 0) {
        throw new UsageError(`--output ${quoted(value)} names no output: --output <name>`);
      }
    }
    const printed = given.get('output')?.flatMap(names) ?? names(fromEnvironment(outputFlag) ?? '');
    const outputs = outputsOf(command);
    const outputSource = `--output${given.has('output') ? '' : ` (from ${environmentName('output')})`}`;
    const print = printed.map((name) => {
      const known = outputs.find((output) => output === name);
      if (known) return known;
      // Another command's output would print an empty line: a script reading it gets nothing.
      if (OUTPUT_NAMES.some((output) => output === name)) {
        throw new UsageError(
          `${outputSource}: ${name} is an output of \`${command === 'agent' ? 'export' : 'agent'}\`, not of \`${command}\` (outputs: ${outputs.join(', ')})`,
        );
      }
      const guess = closest(name, outputs);
      throw new UsageError(
        `${outputSource}: "${name}" is not an output${guess ? `: did you mean ${guess}?` : ''} (outputs: ${outputs.join(', ')})`,
      );
    });
    const flag = (name: string) => byName.get(name) as FlagSpec;
    let json = switchOf(flag('json'));
    if (print.length > 0 && json) {
      // Each decides what stdout holds.
      const typed = typedOne(given.has('output'), switches.has('json'));
      if (typed === 'first') json = false;
      else if (typed === 'second') print.length = 0;
      else
        throw new UsageError(
          '--json and --output both choose what stdout holds (one JSON object, or bare values): give one of them',
        );
    }
    let quiet = switchOf(flag('quiet'));
    let verbose = switchOf(flag('verbose'));
    if (quiet && verbose) {
      const typed = typedOne(switches.has('quiet'), switches.has('verbose'));
      if (typed === 'first') verbose = false;
      else if (typed === 'second') quiet = false;
      else {
        const named = (name: string) => sources[name] ?? `--${name}`;
        throw new UsageError(
          `${named('quiet')} and ${named('verbose')} ask for fewer lines and for more: give one of them`,
        );
      }
    }
    const variables = [
      ...ALL_FLAGS.filter((f) => !COMMAND_LINE_ONLY.includes(f.name)).map((f) =>
        environmentName(f.name),
      ),
      ...OTHER_VARIABLES,
    ];
    const unknownVariables = Object.keys(env)
      .filter((name) => name.startsWith(ENVIRONMENT_PREFIX) && !variables.includes(name))
      .sort()
      .map((name) => {
        const only = COMMAND_LINE_ONLY.find((flag) => environmentName(flag) === name);
        if (only !== undefined) {
          // STATIC_EXPORT_VERSION reads as the docs version as readily as --version.
          const docs =
            only === 'version' ? ` (the docs version is ${environmentName('docs-version')})` : '';
          return `${name} sets nothing and is ignored: --${only} is read from the command line only${docs}`;
        }
        const guess = closest(
          name,
          variables.map((v) => v.toLowerCase()),
        )?.toUpperCase();
        return `${name} sets nothing and is ignored${guess ? `: did you mean ${guess}?` : ''}`;
      });
    return {
      kind: 'run',
      command,
      inputs,
      sources,
      json,
      quiet,
      verbose,
      print,
      unknownVariables,
      ...(fromStdin !== undefined ? { fromStdin } : {}),
    };
  } catch (caught) {
    if (!(caught instanceof UsageError)) throw caught;
    let err = caught;
    if (helpRequested) {
      const help = helpOf(first, rest);
      if (!(help instanceof UsageError)) return help;
      err = help;
    }
    // A message quotes the word it refuses, which may be the key typed in the wrong place.
    const redactor = new Redactor();
    const typedKeys = tokens.flatMap((t) =>
      t.kind !== 'option-terminator' &&
      t.value !== undefined &&
      ((t.kind === 'option' && t.name === 'api-key') || looksLikeKey(t.value))
        ? [t.value]
        : [],
    );
    for (const key of [env.ADMIN_API_KEY, env[environmentName('api-key')], ...typedKeys]) {
      if (key !== undefined && !readsAsFlag(key)) redactor.add(key.trim());
    }
    return {
      kind: 'usage-error',
      message: redactor.redact(err.message),
      ...(command ? { command } : {}),
      json: jsonRequested,
      ...(first === undefined ? { bare: true } : {}),
    };
  }
}

/**
 * The help `--help` asks for, given the words before it: a command's, or the list of
 * commands. An unknown command has none: the error says which one was meant.
 */
function helpOf(first: string | undefined, rest: readonly string[]): CliRequest | UsageError {
  const topic = first === 'help' ? rest[0] : first;
  if (topic === undefined || topic === 'help' || topic === 'version') return { kind: 'help' };
  const command = COMMANDS.find((name) => name === topic);
  return command === undefined ? new UsageError(unknownCommand(topic)) : { kind: 'help', command };
}

function positionalAt(tokens: ReturnType<typeof parseArgs>['tokens'] & object, at: number) {
  const token = tokens[at];
  return token?.kind === 'positional' ? token.value : undefined;
}

/**
 * Of two settings that exclude each other, the one given on the command line: it wins over
 * the environment, as every flag does. Given both the same way, neither can be picked.
 */
function typedOne(first: boolean, second: boolean): 'first' | 'second' | undefined {
  if (first === second) return undefined;
  return first ? 'first' : 'second';
}

/** A word shaped as the service's keys (`mint_…`): a key typed without `--api-key`, or in the wrong place. */
function looksLikeKey(word: string): boolean {
  return /^mint_[A-Za-z0-9_-]{8,}$/.test(word.trim());
}

/** One word that starts with a dash: a flag, not `-` (stdin) nor a sentence (`- fix it`). */
function readsAsFlag(value: string): boolean {
  return value.startsWith('-') && value !== '-' && !/\s/.test(value);
}

/** `--path --json`: the value is missing, and the next flag was taken for it. */
function isFlagLike(value: string, flags: Map<string, FlagSpec>): boolean {
  const name = /^--?(?:no-)?([a-z][a-z-]*)(=|$)/i.exec(value)?.[1];
  return name !== undefined && [...flags.values()].some((f) => f.name === name || f.short === name);
}

/** A value as a message shows it: quoted, escaped, on one line, cut when long. */
function quoted(value: string): string {
  const chars = [...value];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : value);
}

function unknownCommand(word: string): string {
  const guess = closest(word, [...COMMANDS, 'help', 'version']);
  return `unknown command "${word}"${guess ? `: did you mean ${guess}?` : ''}`;
}

/** The candidate nearest to a mistyped word, when it is near enough to be meant. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const bare = word.replace(/^-+/, '');
  const prefixed = candidates.find(
    (candidate) => bare.length >= 3 && candidate.replace(/^-+/, '').startsWith(bare),
  );
  if (bestDistance <= Math.max(1, Math.min(3, Math.floor(bare.length / 3)))) return best;
  return prefixed;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      (rows[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}
