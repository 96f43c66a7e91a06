import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

declare module 'vitest' {
  interface TaskMeta {
    /** What the case must do, as the table shows it. */
    expected?: string;
  }
}

/**
 * Prints the reliability suite as the table a reviewer reads: one row per case, with
 * its family (the file), what it must do, and what it did.
 */
export default class ReliabilityTable implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: string[][] = [];
    for (const module of testModules) {
      if (!module.moduleId.includes('/test/reliability/')) continue;
      const family = path.basename(module.moduleId).replace(/\.test\.ts$/, '');
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        rows.push([
          family,
          test.name,
          test.meta().expected ?? '',
          state === 'passed' ? 'pass' : state,
        ]);
      }
    }
    if (rows.length === 0) return;
    const header = ['family', 'case', 'expected', 'outcome'];
    const widths = header.map((h, i) =>
      Math.min(i === 1 ? 70 : 52, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))),
    );
    const cut = (text: string, width: number) =>
      text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
    const line = (cells: string[]) => cells.map((c, i) => cut(c, widths[i] as number)).join('  ');
    const counts = new Map<string, number>();
    for (const [family] of rows)
      counts.set(family as string, (counts.get(family as string) ?? 0) + 1);
    const failed = rows.filter((r) => r[3] !== 'pass').length;
    console.log(
      [
        '',
        'Reliability and security suite',
        line(header),
        line(widths.map((w) => '-'.repeat(w))),
        ...rows.map(line),
        '',
        `${rows.length} cases (${[...counts].map(([f, n]) => `${f} ${n}`).join(', ')}); ${failed === 0 ? 'all pass' : `${failed} not passing`}.`,
        '',
      ].join('\n'),
    );
  }
}
