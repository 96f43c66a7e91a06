import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ActionError } from '../errors.js';

/**
 * Everything lands in a sibling of the target first and is renamed into place only
 * when complete, so after any failure the target is untouched (or absent).
 */
export function siblingPath(target: string, label: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${label}-${randomBytes(4).toString('hex')}`,
  );
}

/** Fails early, before any network call, when `target` cannot become a directory. */
export async function checkTargetDirectory(target: string): Promise<void> {
  const stat = await fs.lstat(target).catch(() => undefined);
  if (stat && !stat.isDirectory()) {
    throw new ActionError(
      `path "${target}" exists and is not a directory: remove it or choose another path.`,
    );
  }
}

export async function createStagingDirectory(target: string): Promise<string> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const staging = siblingPath(target, 'partial');
  await fs.mkdir(staging, { mode: 0o755 });
  return staging;
}

/** Puts `staging` where `target` is, replacing an earlier export in one rename. */
export async function replaceDirectory(
  staging: string,
  target: string,
): Promise<{ replaced: boolean }> {
  const previous = siblingPath(target, 'previous');
  let replaced = false;
  try {
    await fs.rename(target, previous);
    replaced = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    await fs.rename(staging, target);
  } catch (err) {
    if (replaced) await fs.rename(previous, target);
    throw err;
  }
  if (replaced) await fs.rm(previous, { recursive: true, force: true });
  return { replaced };
}

/** Moves a finished file into `dir` under `name`, atomically on the destination side. */
export async function moveFileInto(file: string, dir: string, name: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const destination = path.join(dir, name);
  const staging = siblingPath(destination, 'partial');
  try {
    await fs.rename(file, staging);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.copyFile(file, staging);
    await fs.rm(file, { force: true });
  }
  try {
    await fs.chmod(staging, 0o644);
    await fs.rename(staging, destination);
  } catch (err) {
    await fs.rm(staging, { force: true });
    throw err;
  }
  return destination;
}

/** Writes a small text file atomically (temp file, then rename). */
export async function writeFileAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const staging = siblingPath(file, 'partial');
  try {
    await fs.writeFile(staging, content, { mode });
    await fs.rename(staging, file);
  } catch (err) {
    await fs.rm(staging, { force: true });
    throw err;
  }
}
