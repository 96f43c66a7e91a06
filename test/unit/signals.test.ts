import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NODE24, ROOT } from '../../scripts/runner.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'signals-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** An entry point as src/index.ts is, its run awaiting what `body` awaits. */
async function entryPoint(body: string): Promise<string> {
  const file = path.join(dir, 'entry.mts');
  await fs.writeFile(
    file,
    `import { runToTheEnd } from ${JSON.stringify(path.join(ROOT, 'src', 'signals.ts'))};
await runToTheEnd(async () => { ${body} }, (line) => process.stdout.write('::error::' + line + '\\n'));
`,
  );
  return file;
}

describe('runToTheEnd', () => {
  it.each([
    ['Node 20', process.execPath],
    ['Node 24', NODE24],
  ])(
    'on %s, a run left waiting forever ends with one error line and exit code 1, not a bare 13',
    async (_name, node) => {
      const file = await entryPoint('await new Promise(() => {});');
      const child = spawnSync(node, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8' });
      expect(child.status).toBe(1);
      expect(child.stdout).toBe(
        '::error::The run ended without finishing: it was left waiting for something that never came. This is a bug in the action: rerun the step, and report it with this log.\n',
      );
    },
  );

  it('leaves a run that settles, and the exit code it sets, as they are', async () => {
    const file = await entryPoint("process.exitCode = 3; process.stdout.write('done\\n');");
    const child = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(child.status).toBe(3);
    expect(child.stdout).toBe('done\n');
  });
});
