import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  lintReadme,
  packedName,
  readActionInterface,
} from '../../scripts/lint-readme-workflows.js';
import { ROOT } from '../../scripts/runner.js';

const fence = (language: string, text: string) => `\`\`\`${language}\n${text}\n\`\`\``;

const BAD = [
  '# Recipes',
  '',
  fence(
    'yaml',
    [
      'jobs:',
      '  docs:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - id: agent',
      '        uses: your-org/static-export-action@v1',
      '        with:',
      '          api-key: ${{ secrets.ADMIN_API_KEY }}',
      '          projectid: docs',
      '      - run: gh pr edit "${{ steps.agent.outputs.pr-link }}"',
      '      - run: echo "${{ steps.agent.outputs.pull-request }}"',
      '      - run: echo "${{ github.event.issue.title }}"',
      '        shell: nonsense',
    ].join('\n'),
  ),
  '',
  fence('sh', 'npx ./tools/static-export-action.tgz export --domain docs.example.com'),
  '',
  fence('yaml', 'just: a mapping'),
].join('\n');

describe('the README recipe check', () => {
  it('finds injection, unknown inputs and outputs, linter errors and a wrong packed name', async () => {
    const { problems } = await lintReadme(BAD, await readActionInterface(), 'pkg-1.0.0.tgz');
    const at = (line: number) => problems.filter((p) => p.line === line).map((p) => p.message);
    expect(at(12)).toEqual(['"projectid" is not an input of action.yml']);
    expect(at(13)).toEqual([expect.stringContaining('interpolated into run: (shell injection)')]);
    expect(at(14)).toEqual([
      expect.stringContaining('interpolated into run:'),
      '"pull-request" is not an output of action.yml',
    ]);
    expect(at(15).join('\n')).toMatch(/potentially untrusted.*\[actionlint expression\]/);
    expect(at(16).join('\n')).toMatch(/\[actionlint shell-name\]/);
    expect(at(20)).toEqual([
      '"static-export-action.tgz" is not the file npm pack makes (pkg-1.0.0.tgz)',
    ]);
    expect(at(24)).toEqual([expect.stringContaining('neither a workflow')]);
  });

  it('passes on the README itself', async () => {
    const markdown = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const { problems, checked } = await lintReadme(
      markdown,
      await readActionInterface(),
      await packedName(),
    );
    expect(problems).toEqual([]);
    expect(checked.filter((line) => /: (workflow|steps)$/.test(line)).length).toBeGreaterThan(4);
  });
});
