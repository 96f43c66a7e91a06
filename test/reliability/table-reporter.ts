import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

declare module 'vitest' {
  interface TaskMeta {
    /** What the case must do, as the table shows it. */
    expected?: string;
    /** A known bug of the action that keeps the case skipped until it is fixed. */
    bug?: string;
  }
}

/**
 * Prints the reliability suite as the table a reviewer reads: one row per case, with
 * its family (the file), what it must do, and what it did. Cases skipped because of a
 * known bug say so, and the bugs are listed under the table.
 */
export default class ReliabilityTable implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: string[][] = [];
    const bugs = new Map<string, number>();
    for (const module of testModules) {
      if (!module.moduleId.includes('/test/reliability/')) continue;
      const family = path.basename(module.moduleId).replace(/\.test\.ts$/, '');
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        const { expected = '', bug } = test.meta();
        const outcome =
          state === 'passed'
            ? 'pass'
            : state === 'failed'
              ? 'FAIL'
              : bug
                ? `skip, BUG ${bugs.get(bug) ?? bugs.set(bug, bugs.size + 1).size}`
                : state;
        rows.push([family, test.name, expected, outcome]);
      }
    }
    if (rows.length === 0) return;
    const header = ['family', 'case', 'expected', 'outcome'];
    const widths = header.map((h, i) =>
      Math.min(
        [16, 76, 64, 12][i] as number,
        Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)),
      ),
    );
    const cut = (text: string, width: number) =>
      text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
    const line = (cells: string[]) =>
      cells
        .map((c, i) => cut(c, widths[i] as number))
        .join(' | ')
        .trimEnd();
    const counts = new Map<string, number>();
    for (const [family] of rows)
      counts.set(family as string, (counts.get(family as string) ?? 0) + 1);
    const passed = rows.filter((r) => r[3] === 'pass').length;
    const failed = rows.filter((r) => r[3] === 'FAIL').length;
    console.log(
      [
        '',
        'Reliability and security suite: faults, hostile archives, inputs, secrets, concurrency, proxy, cancellation',
        line(header),
        widths.map((w) => '-'.repeat(w)).join('-|-'),
        ...rows.map(line),
        '',
        `${rows.length} cases (${[...counts].map(([f, n]) => `${f} ${n}`).join(', ')}): ${passed} pass, ${failed} fail, ${rows.length - passed - failed} skipped.`,
        ...[...bugs].map(([bug, n]) => `BUG ${n}: ${bug}`),
        '',
      ].join('\n'),
    );
  }
}
