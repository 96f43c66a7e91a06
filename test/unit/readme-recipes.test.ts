import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packedName } from '../../scripts/lint-readme-workflows.js';
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
  '',
  fence(
    'yaml',
    [
      '- uses: your-org/static-export-action@v1',
      '  with:',
      '    domain: docs.example.com',
      '    deployment-type: airgapped',
      '- uses: your-org/static-export-action@v1',
      '  with:',
      '    api-key: ${{ secrets.ADMIN_API_KEY }}',
      '    domain: ${{ vars.DOCS_DOMAIN }}',
      '    path: site/${{ vars.DOCS_DOMAIN }}',
      '    timeout: 45m',
    ].join('\n'),
  ),
].join('\n');

/** The check as CI runs it (`npm run lint:readme`), on a given Markdown file. */
async function lint(file?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/lint-readme-workflows.ts', ...(file ? [file] : [])],
      { cwd: ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the README recipe check', () => {
  it('finds injection, unknown inputs and outputs, linter errors and a wrong packed name', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-readme-'));
    const file = path.join(dir, 'BAD.md');
    await fs.writeFile(file, BAD);
    const run = await lint(file);
    expect(run.code).toBe(1);
    const at = (line: number) =>
      run.stderr
        .split('\n')
        .filter((row) => row.startsWith(`BAD.md:${line}: `))
        .map((row) => row.slice(`BAD.md:${line}: `.length));
    expect(at(12)).toEqual(['"projectid" is not an input of action.yml']);
    expect(at(13)).toEqual([expect.stringContaining('interpolated into run: (shell injection)')]);
    expect(at(14)).toEqual([
      expect.stringContaining('interpolated into run:'),
      '"pull-request" is not an output of action.yml',
    ]);
    expect(at(15).join('\n')).toMatch(/potentially untrusted.*\[actionlint expression\]/);
    expect(at(16).join('\n')).toMatch(/\[actionlint shell-name\]/);
    expect(at(20)).toEqual([
      `"static-export-action.tgz" is not the file npm pack makes (${await packedName()})`,
    ]);
    expect(at(24)).toEqual([expect.stringContaining('neither a workflow')]);
    // What the action itself would refuse before any request: a missing required input
    // and a literal value it does not accept. A value from an expression is not judged.
    expect(at(28)).toEqual([expect.stringMatching(/^api-key: is required/)]);
    expect(at(31)).toEqual([expect.stringMatching(/^deployment-type: must be /)]);
    expect(at(30)).toEqual([]);
    expect(at(35)).toEqual([]);
    expect(at(36)).toEqual([]);
    expect(at(37)).toEqual([]);
  }, 60_000);

  it('checks a recipe fenced inside a list item, or with words after its language', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-readme-'));
    const file = path.join(dir, 'NESTED.md');
    const steps = [
      '- uses: your-org/static-export-action@v1',
      '  with:',
      '    api-key: ${{ secrets.ADMIN_API_KEY }}',
      '    domian: docs.example.com',
    ].join('\n');
    const indented = (text: string) => text.replace(/^/gm, '   ');
    await fs.writeFile(
      file,
      [
        '- In a list item:',
        '',
        indented(fence('yaml', steps)),
        '',
        fence('yaml title="ci.yml"', steps),
      ].join('\n'),
    );
    const run = await lint(file);
    expect(run.code).toBe(1);
    const unknown = '"domian" is not an input of action.yml';
    expect(run.stderr).toContain(`NESTED.md:7: ${unknown}`);
    expect(run.stderr).toContain(`NESTED.md:14: ${unknown}`);
    await fs.rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('checks outputs named in the index form, where only the dotted one was checked', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-readme-'));
    const file = path.join(dir, 'INDEX.md');
    const steps = [
      '- id: export',
      '  uses: your-org/static-export-action@v1',
      '  with:',
      '    api-key: ${{ secrets.ADMIN_API_KEY }}',
      '    domain: docs.example.com',
      '- env:',
      "    LINK: ${{ steps.export.outputs['bundle-link'] }}",
      "    SITE: ${{ steps['export'].outputs[ 'site-path' ] }}",
      "    SHA: ${{ steps.export.outputs['sha256'] }}",
      '  run: echo "$LINK $SITE $SHA"',
    ].join('\n');
    await fs.writeFile(file, fence('yaml', steps));
    const run = await lint(file);
    expect(run.code).toBe(1);
    const problems = run.stderr.split('\n').filter((row) => row.startsWith('INDEX.md:'));
    expect(problems).toEqual([
      'INDEX.md:8: "bundle-link" is not an output of action.yml',
      'INDEX.md:9: "site-path" is not an output of action.yml',
    ]);
    await fs.rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('wants a concurrency group for a workflow that deploys to an environment', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-readme-'));
    const file = path.join(dir, 'DEPLOY.md');
    const workflow = (concurrency: string[]) =>
      [
        'on: push',
        ...concurrency,
        'jobs:',
        '  deploy:',
        '    runs-on: ubuntu-latest',
        '    environment: production',
        '    steps:',
        '      - run: ./deploy.sh',
      ].join('\n');
    await fs.writeFile(
      file,
      [fence('yaml', workflow([])), '', fence('yaml', workflow(['concurrency: docs']))].join('\n'),
    );
    const run = await lint(file);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n').filter((row) => row.startsWith('DEPLOY.md:'))).toEqual([
      'DEPLOY.md:4: a job deploys to an environment, and the workflow has no concurrency: group: overlapping runs may deploy out of order',
    ]);
    await fs.rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('passes on the README itself', async () => {
    const run = await lint();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.match(/: (workflow|steps)$/gm)?.length).toBeGreaterThan(4);
  }, 60_000);
});
