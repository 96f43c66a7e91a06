import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/runner.js';

/** The fixture run with the skip guard of vitest.config.ts and vitest.world.config.ts. */
function runFixture(env: Record<string, string | undefined>) {
  const { CI: _ci, SKIP_KIND: _kind, ...inherited } = process.env;
  const run = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      path.join(ROOT, 'test', 'support', 'ci-skips', 'vitest.config.ts'),
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...inherited, ...env } },
  );
  return { code: run.status, output: run.stdout + run.stderr };
}

describe('a skipped test in CI', () => {
  it('fails the run, naming the test and why it skipped', () => {
    const run = runFixture({ CI: 'true', SKIP_KIND: 'tool' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain('1 test(s) skipped with CI=true');
    expect(run.output).toContain('skips.fixture.ts > needs a tool (the tool is not installed)');
  });

  it('is allowed when it is kept skipped for a known bug', () => {
    const run = runFixture({ CI: 'true', SKIP_KIND: 'bug' });
    expect(run.code, run.output).toBe(0);
  });

  it('is allowed outside CI', () => {
    const run = runFixture({ SKIP_KIND: 'tool' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain('skipped with CI=true');
  });

  it('leaves a run with no skip alone', () => {
    const run = runFixture({ CI: 'true' });
    expect(run.code, run.output).toBe(0);
  });
});
