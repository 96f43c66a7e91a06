import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Directories the action never replaces, whatever the inputs say: losing one of them
 * breaks the machine, the runner or the checkout. Judged on paths only (no filesystem
 * access), so the rules are tested without going near a real system directory.
 */

export interface ProtectedContext {
  platform: NodeJS.Platform;
  /** The checkout (GITHUB_WORKSPACE) or, for the CLI, the current directory. */
  workspace: string;
  home?: string;
  /** The runner's temp and tool-cache roots and the system temp directory. */
  runnerDirs: readonly string[];
}

/** Whole trees that belong to the operating system. */
const POSIX_SYSTEM_TREES = [
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/etc',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/include',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/usr/local/lib',
];
/** Inside a system tree but ordinary scratch space (a tmpfs): judged like /tmp. */
const POSIX_SCRATCH_INSIDE_SYSTEM = ['/dev/shm'];
const MACOS_SYSTEM_TREES = [
  '/System',
  '/Library',
  '/Applications',
  '/private/etc',
  '/private/var/db',
];
/** Directories that hold other people's data: replacing one wipes everything under it. */
const POSIX_SHARED_DIRS = [
  '/usr',
  '/usr/share',
  '/usr/local',
  '/var',
  '/var/lib',
  '/var/log',
  '/var/cache',
  '/var/tmp',
  '/var/www',
  '/opt',
  '/tmp',
  '/srv',
  '/home',
  '/mnt',
  '/media',
  '/root',
  '/run',
  '/snap',
];
const MACOS_SHARED_DIRS = ['/Users', '/Volumes', '/private', '/private/var', '/private/tmp'];
const WINDOWS_SYSTEM_TREES = ['\\Windows', '\\Program Files', '\\Program Files (x86)'];
const WINDOWS_SHARED_DIRS = ['\\Users', '\\ProgramData'];

/**
 * Why `target` (absolute) must never be replaced, or undefined when it may be (subject
 * to the rules on what it holds). `system` trees are refused at any depth; the other
 * protected directories only themselves, and every directory that contains one of them.
 */
export function protectedReason(target: string, context: ProtectedContext): string | undefined {
  const { platform } = context;
  const windows = platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  const t = paths.resolve(target);
  const same = (dir: string) => contains(dir, t, platform) && contains(t, dir, platform);
  /** `t` is `dir` or contains it: replacing `t` would remove `dir`. */
  const covers = (dir: string) => contains(t, dir, platform);

  if (paths.parse(t).root === t) return 'it is the root of a filesystem';
  if (covers(context.workspace)) {
    return same(context.workspace) ? 'it is the workspace itself' : 'it contains the workspace';
  }
  if (contains(paths.join(context.workspace, '.git'), t, platform)) {
    return "it is inside the checkout's .git directory";
  }
  if (context.home && covers(context.home)) {
    return same(context.home) ? 'it is the home directory' : 'it contains the home directory';
  }
  const runnerDir = context.runnerDirs.find(covers);
  if (runnerDir) {
    return `it ${same(runnerDir) ? 'is' : 'contains'} the temporary or tool-cache directory ${runnerDir}`;
  }

  const system = systemTreeOf(t, platform);
  if (system) return `it is inside ${system}, a system directory`;
  const drive = windows ? paths.parse(t).root.replace(/\\$/, '') : '';
  const sharedDirs = windows
    ? WINDOWS_SHARED_DIRS.map((d) => drive + d)
    : [...POSIX_SHARED_DIRS, ...(platform === 'darwin' ? MACOS_SHARED_DIRS : [])];
  const shared = sharedDirs.find(covers);
  if (shared) return `it ${same(shared) ? 'is' : 'contains'} ${shared}, a system directory`;
  return undefined;
}

/** The operating system's tree that `target` lies in, if any: nothing is written there. */
export function systemTreeOf(target: string, platform: NodeJS.Platform): string | undefined {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const t = paths.resolve(target);
  const drive = platform === 'win32' ? paths.parse(t).root.replace(/\\$/, '') : '';
  const trees =
    platform === 'win32'
      ? WINDOWS_SYSTEM_TREES.map((d) => drive + d)
      : [...POSIX_SYSTEM_TREES, ...(platform === 'darwin' ? MACOS_SYSTEM_TREES : [])];
  const scratch =
    platform === 'win32'
      ? undefined
      : POSIX_SCRATCH_INSIDE_SYSTEM.find((dir) => contains(dir, t, platform));
  // Below a scratch directory is ordinary space; the directory itself stays refused.
  if (scratch && !contains(t, scratch, platform)) return undefined;
  return trees.find((dir) => contains(dir, t, platform));
}

/**
 * Whether `inner` is `outer` or lies inside it, compared as the platform compares names
 * (macOS and Windows ignore case by default).
 */
export function contains(outer: string, inner: string, platform: NodeJS.Platform): boolean {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const fold = (p: string) =>
    platform === 'win32' || platform === 'darwin'
      ? paths.resolve(p).toLowerCase()
      : paths.resolve(p);
  const rel = paths.relative(fold(outer), fold(inner));
  return (
    rel === '' || (rel !== '..' && !rel.startsWith(`..${paths.sep}`) && !paths.isAbsolute(rel))
  );
}

/**
 * A directory as the machine knows it: the same device and inode is the same directory,
 * whatever path reaches it (a bind mount, or a second mount of the same filesystem).
 */
export interface DirectoryIdentity {
  dev: bigint;
  ino: bigint;
}

/** The identity of what `file` leads to, or undefined when nothing is there. */
export async function identityOf(file: string): Promise<DirectoryIdentity | undefined> {
  const stat = await fs.stat(file, { bigint: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  });
  return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
}

export function sameIdentity(a: DirectoryIdentity, b: DirectoryIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * A protected directory, named as a message shows it, and the identities of it and of
 * each parent, itself first (undefined for one that does not exist).
 */
export interface ProtectedLineage {
  name: string;
  identities: readonly (DirectoryIdentity | undefined)[];
}

/**
 * Why `target` must never be replaced when paths cannot tell: it is one of the protected
 * directories, or one of their parents, reached by another path. Undefined otherwise.
 */
export function protectedReasonByIdentity(
  target: DirectoryIdentity,
  lineages: readonly ProtectedLineage[],
): string | undefined {
  // Some filesystems report no inode numbers (0): nothing can be told from them.
  if (target.ino === 0n) return undefined;
  for (const { name, identities } of lineages) {
    const at = identities.findIndex((id) => id !== undefined && sameIdentity(id, target));
    if (at < 0) continue;
    return `it ${at === 0 ? 'is' : 'contains'} ${name}, reached by another path (the same device and inode: a bind mount or another mount of it)`;
  }
  return undefined;
}
