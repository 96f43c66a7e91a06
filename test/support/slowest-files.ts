import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files at the end of a run, so a file that starts to wait on
 * real time shows up at once.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules
      .map((module) => {
        // From the first case's start to the last one's end (concurrent cases overlap),
        // plus the import of the file.
        const spans = [...module.children.allTests()].flatMap((test) => {
          const diagnostic = test.diagnostic();
          return diagnostic
            ? [[diagnostic.startTime, diagnostic.startTime + diagnostic.duration]]
            : [];
        });
        const cases =
          spans.length > 0
            ? Math.max(...spans.map(([, end]) => end as number)) -
              Math.min(...spans.map(([start]) => start as number))
            : 0;
        return {
          file: path.relative(process.cwd(), module.moduleId),
          ms: cases + module.diagnostic().collectDuration,
          tests: [...module.children.allTests()].length,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (files.length === 0) return;
    const width = Math.max(...files.map((f) => f.file.length));
    console.log(
      [
        '',
        'Slowest test files (import, then its cases from first to last):',
        ...files.map(
          (f) =>
            `  ${f.file.padEnd(width)}  ${(f.ms / 1000).toFixed(1).padStart(6)}s  ${f.tests} tests`,
        ),
        '',
      ].join('\n'),
    );
  }
}
