import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * What is mounted where, from the kernel's table on Linux: a bind mount of the same file
 * system keeps its parent's device number, so only the table tells it. Elsewhere, or
 * when the table cannot be read, the list is empty.
 */
async function mountPoints(): Promise<string[]> {
  if (process.platform !== 'linux') return [];
  return pointsOf(await fs.readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
}

function pointsOf(table: string): string[] {
  const points: string[] = [];
  for (const line of table.split('\n')) {
    const point = line.split(' ')[4];
    if (point !== undefined) points.push(unescapeMountPath(point));
  }
  return points;
}

/** The kernel writes a space, tab, newline and backslash in a mount path as `\ooo`. */
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

/** Whether something is mounted at `dir` itself. */
export async function isMountPoint(dir: string): Promise<boolean> {
  const real = await fs.realpath(dir);
  return (await mountPoints()).includes(real);
}

/** The mount points below `real` (a real path), not at it. */
function below(real: string, points: readonly string[]): string[] {
  const prefix = `${real}${path.sep}`;
  return points.filter((point) => point.startsWith(prefix));
}

/** What is mounted below `dir` (not at it), as paths relative to it. */
export async function mountsInside(dir: string): Promise<string[]> {
  const real = await fs.realpath(dir).catch(() => undefined);
  if (real === undefined) return [];
  return below(real, await mountPoints()).map((point) => path.relative(real, point));
}

/**
 * `mountsInside`, for an exit hook, which cannot wait: whether anything is mounted below
 * `dir`, true also when that cannot be told (the tree is then left for a later run).
 */
export function holdsMountsSync(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const table = fsSync.readFileSync('/proc/self/mountinfo', 'utf8');
    return below(fsSync.realpathSync(dir), pointsOf(table)).length > 0;
  } catch {
    return true;
  }
}
