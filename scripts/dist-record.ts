/**
 * dist/ records what it was built from, so a test run can tell a stale bundle from a
 * fresh one without rebuilding (an ncc build takes half a minute):
 *
 *   tsx scripts/dist-record.ts --write    after a build (npm run build does it)
 *   tsx scripts/dist-record.ts --check    exit 1, saying why, when dist/ is stale
 *   tsx scripts/dist-record.ts --ensure   rebuild when stale (npm test does it first)
 *
 * The record holds a digest of every input of the build (src/, the lockfile, the
 * compiler settings, the build command) and one of the bundle itself, so an edited or
 * half-written dist/ counts as stale too. check-dist.yml still rebuilds and diffs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECORD = path.join('dist', 'build-record.json');

interface BuildRecord {
  sources: string;
  bundle: string;
}

/** Files under `dir` of `root`, relative to `root`, sorted, with forward slashes. */
function filesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

function digest(root: string, files: string[], extra = ''): string {
  const hash = createHash('sha256').update(extra);
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`).update(existsSync(full) ? readFileSync(full) : '');
  }
  return hash.digest('hex');
}

/** Everything the bundle is a function of. */
export function sourcesDigest(root = ROOT): string {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  // Only the build command of package.json: other scripts do not change the bundle.
  return digest(
    root,
    [
      ...filesUnder(root, 'src'),
      // The fixes applied to dependencies at install (patch-package), bundled with them.
      ...filesUnder(root, 'patches'),
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ],
    manifest.scripts?.build ?? '',
  );
}

export function bundleDigest(root = ROOT): string {
  const record = RECORD.split(path.sep).join('/');
  return digest(
    root,
    filesUnder(root, 'dist').filter((file) => file !== record),
  );
}

export function writeRecord(root = ROOT): void {
  const record: BuildRecord = { sources: sourcesDigest(root), bundle: bundleDigest(root) };
  writeFileSync(path.join(root, RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/** Why dist/ is not what the sources build to, or undefined when it is. */
export function staleness(root = ROOT): string | undefined {
  const file = path.join(root, RECORD);
  if (!existsSync(file)) return `${RECORD} is missing: dist/ was not built by npm run build`;
  const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildRecord>;
  if (record.sources !== sourcesDigest(root))
    return 'src/, package-lock.json, the tsconfig files or the build command changed since dist/ was built';
  if (record.bundle !== bundleDigest(root)) return 'dist/ was changed after it was built';
  return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2];
  if (mode === '--write') {
    writeRecord();
  } else if (mode === '--check') {
    const why = staleness();
    if (why) {
      console.error(`dist/ is stale: ${why}. Run npm run build.`);
      process.exit(1);
    }
    console.log('dist/ is what the sources build to.');
  } else if (mode === '--ensure') {
    const why = staleness();
    if (why) {
      console.log(`dist/ is stale (${why}): building it, so the tests run the current code.`);
      const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
      if (build.status !== 0) process.exit(build.status ?? 1);
    } else {
      console.log('dist/ is what the sources build to: not rebuilt.');
    }
  } else {
    console.error('usage: tsx scripts/dist-record.ts --write | --check | --ensure');
    process.exit(2);
  }
}
