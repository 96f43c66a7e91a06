/**
 * Keeps the README's inputs and outputs tables in step with action.yml.
 *   tsx scripts/readme-tables.ts          rewrite the tables in README.md
 *   tsx scripts/readme-tables.ts --check  exit 1 when README.md is out of date (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';
import { ROOT } from './runner.js';

interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const cell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

export function renderTables(action: ActionYaml): { inputs: string; outputs: string } {
  const inputs = [
    '| Input | Default | Description |',
    '|---|---|---|',
    ...Object.entries(action.inputs).map(
      ([name, input]) =>
        `| \`${name}\` | ${input.required ? '**required**' : input.default !== undefined ? `\`${input.default}\`` : ''} | ${cell(input.description)} |`,
    ),
  ].join('\n');
  const outputs = [
    '| Output | Description |',
    '|---|---|',
    ...Object.entries(action.outputs).map(
      ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`,
    ),
  ].join('\n');
  return { inputs, outputs };
}

function replaceBetween(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} … ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

const readmePath = path.join(ROOT, 'README.md');
const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYaml;
const tables = renderTables(action);
const current = readFileSync(readmePath, 'utf8');
// Formatted as `npm run format` would, so the check and the formatter agree.
const updated = await format(
  replaceBetween(replaceBetween(current, 'inputs', tables.inputs), 'outputs', tables.outputs),
  { ...(await resolveConfig(readmePath)), filepath: readmePath },
);
if (process.argv.includes('--check')) {
  if (updated !== current) {
    console.error(
      'README.md tables differ from action.yml: run `npm run docs` and commit README.md.',
    );
    process.exit(1);
  }
  console.log('README.md tables match action.yml.');
} else if (updated !== current) {
  writeFileSync(readmePath, updated);
  console.log('README.md tables updated from action.yml.');
}
