import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_NAME } from '../../src/deliver/manifest.js';

/**
 * Every file under `dir`, relative, sorted; symlinks shown as `name -> target`. The
 * export manifest at the root is left out (the site's own files are compared here; the
 * manifest has tests of its own).
 */
export async function listTree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (relative === MANIFEST_NAME) continue;
    if (entry.isSymbolicLink()) out.push(`${relative} -> ${await fs.readlink(full)}`);
    else if (entry.isFile()) out.push(relative);
  }
  return out.sort();
}

/** SHA-256 of a file, hex. */
export async function sha256File(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');
}

/** A map of relative path -> SHA-256 for every regular file under `dir`. */
export async function treeDigest(dir: string): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const relative of await listTree(dir)) {
    if (relative.includes(' -> ')) digest[relative] = 'symlink';
    else digest[relative] = await sha256File(path.join(dir, relative));
  }
  return digest;
}

export async function exists(file: string): Promise<boolean> {
  return fs
    .lstat(file)
    .then(() => true)
    .catch(() => false);
}

/**
 * What is left in a directory besides the reports the action writes there on purpose (the
 * change report, `static-export-changes-<job>.json` in RUNNER_TEMP): stray or temporary
 * files, which a run must never leave.
 */
export async function strayFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => !/^static-export-changes-.+\.json$/.test(name));
}

/** Writes each file of `files` (relative path -> content) under `dir`, its folders made. */
export async function writeTree(
  dir: string,
  files: Record<string, string | Buffer> | Iterable<readonly [string, string | Buffer]>,
): Promise<void> {
  const entries = Symbol.iterator in files ? files : Object.entries(files);
  for (const [name, content] of entries) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
}
