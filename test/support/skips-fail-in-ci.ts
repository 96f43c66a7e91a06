import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * In CI (CI=true) a skipped test fails the run. `.ci/run` installs every tool and builds
 * every fixture the suites need, so a case that skips there tests nothing while the run
 * stays green: a missing install step, a machine without mount rights, a fixture that did
 * not build. Cases kept skipped for a known bug of the action (`meta.bug`, listed under
 * the reliability table) are the exception, as are runs filtered by name (`-t`).
 */
export default class SkipsFailInCi implements Reporter {
  #filtered = false;

  onInit(vitest: Vitest): void {
    this.#filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (process.env.CI !== 'true' || this.#filtered) return;
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped' || test.meta().bug) continue;
        const file = path.relative(process.cwd(), module.moduleId);
        skipped.push(`  ${file} > ${test.fullName}${result.note ? ` (${result.note})` : ''}`);
      }
    }
    if (skipped.length === 0) return;
    console.error(
      [
        '',
        `${skipped.length} test(s) skipped with CI=true, where every tool is installed and a skip tests nothing:`,
        ...skipped,
        '',
      ].join('\n'),
    );
    process.exitCode = 1;
  }
}
