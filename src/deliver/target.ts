import { constants as fsConstants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type ArchiveBytes,
  MANIFEST_NAME,
  type Manifest,
  readManifest,
  writtenByNewer,
} from './manifest.js';
import {
  contains,
  type DirectoryIdentity,
  identityOf,
  type ProtectedContext,
  type ProtectedLineage,
  protectedReason,
  protectedReasonByIdentity,
  systemTreeOf,
} from './protected.js';
import { isMountPoint } from './mounts.js';
import { PathInUseError } from '../errors.js';
import { siblingPath } from './place.js';
import {
  changedSinceExport,
  provenBefore,
  sha256OfLargeFile,
  touchedSince,
  type Unreadable,
} from './unchanged.js';
import type { InvokedAs } from '../report.js';
import { readTree } from '../tree-walk.js';

/**
 * What `path` may replace. It is replaced only when it does not exist, is an empty
 * directory, or holds an earlier export of this action (its manifest, nothing the
 * manifest does not list, and the listed files unchanged). Anything else needs the
 * explicit `overwrite` opt-in, and the protected directories (see protected.ts) are
 * refused even then. Outside the workspace (where the path really leads) only a missing
 * directory or an earlier export may be replaced without the opt-in.
 */

export interface TargetRules extends ProtectedContext {
  overwrite: boolean;
  /** Where the run comes from, for how a refusal names the opt-in (`--overwrite true` on the command line). */
  invokedAs?: InvokedAs;
}

/** The way out of a refusal, as the user gives it. */
export function optIn(rules: Pick<TargetRules, 'invokedAs'>): string {
  return rules.invokedAs === 'cli' ? 'pass --overwrite true' : 'set overwrite to true';
}

export type TargetState =
  | { kind: 'absent' }
  | { kind: 'empty' }
  /** An earlier export of this action. */
  | { kind: 'export'; manifest: Manifest }
  /**
   * A directory this action did not write; replaced only with `overwrite`. `manifest` is
   * the valid manifest of an earlier export it holds beside other files, or changed since:
   * what the change report and `max-removed-pages` still count against.
   */
  | { kind: 'foreign'; description: string; manifest?: Manifest };

/** Why `path` may not be used; the message names the path, what is in it and the way out. */
export class TargetRefusal extends Error {
  override name = 'TargetRefusal';
}

const SAMPLE = 3;

/**
 * Decides whether the directory `target` may be replaced by a new export. Reads the
 * filesystem (never writes). Throws a TargetRefusal, or returns what is there now.
 */
export async function inspectTarget(
  target: string,
  rules: TargetRules,
  given?: string,
): Promise<TargetState> {
  const shown = describePath(target, given);
  const refuse = (why: string): never => {
    throw new TargetRefusal(`${shown} ${why}`);
  };
  await checkSitePlace(target, rules, given);

  const stat = await lstatOrUndefined(target);
  if (stat === undefined) return { kind: 'absent' };
  if (stat.isSymbolicLink()) {
    const to = await fs.readlink(target).catch(() => '?');
    refuse(
      `is a symbolic link (to ${to}): give the directory itself as \`path\`, so that the link is not replaced by a directory.`,
    );
  }
  if (!stat.isDirectory())
    refuse('exists and is not a directory: remove it or choose another `path`.');
  const parent = await fs.stat(path.dirname(target));
  if (parent.dev !== stat.dev || (await isMountPoint(target)))
    refuse(
      `is a mount point (a file system or a bind mount is mounted there), and a mount point cannot be swapped for a new directory: give a directory inside it as \`path\`, such as ${path.join(given ?? target, 'site')}.`,
    );
  const uid = process.getuid?.();
  // In a sticky directory (like /tmp) only the owner of an entry, or of the directory,
  // may rename it away.
  if ((parent.mode & STICKY) !== 0 && uid !== undefined && uid !== 0 && parent.uid !== uid) {
    if (stat.uid !== uid)
      refuse(
        `belongs to another user (uid ${stat.uid}) in a directory where only an entry's owner may move it (the sticky bit, as on /tmp), so it cannot be swapped for the new site: choose a \`path\` of this runner's own.`,
      );
  }

  const state = await describeDirectory(target).catch((err: NodeJS.ErrnoException) => {
    // It was there a moment ago: something moved or replaced it while it was read.
    if (err.code !== 'ENOENT') throw err;
    // Not the input's fault: the same run succeeds once the other has ended.
    throw new PathInUseError(
      `${shown} changed while it was being checked, such as by another run into the same path (runs into one path must not overlap): wait for that run to end, then run again.`,
    );
  });
  const outsideAt = await realPathOutsideWorkspace(target, rules);
  const outside = outsideAt !== undefined;
  const needsOptIn = state.kind === 'foreign' || (state.kind === 'empty' && outside);
  if (needsOptIn && !rules.overwrite) {
    const what =
      state.kind === 'foreign'
        ? state.description
        : `is an existing directory outside the workspace${outsideAt === target ? '' : ` (it resolves to ${outsideAt})`}`;
    refuse(
      `${what}: refusing to replace it. Choose a new or empty directory${outside ? ' inside the workspace' : ''}, or ${optIn(rules)} to replace it and everything in it.`,
    );
  }
  return state;
}

/**
 * The checks of the directory `target` by where it is, not by what it holds: made before
 * anything is written beside it (the lock on it), and again by inspectTarget.
 */
export async function checkSitePlace(
  target: string,
  rules: TargetRules,
  given?: string,
): Promise<void> {
  const refuse = (why: string): never => {
    throw new TargetRefusal(`${describePath(target, given)} ${why}`);
  };
  const protectedWhy =
    (await protectedReasonThroughLinks(target, rules)) ??
    (await protectedReasonThroughMounts(target, rules));
  if (protectedWhy)
    refuse(
      `is never replaced: ${protectedWhy}. Choose a directory of its own, such as a new folder in the workspace.`,
    );

  const unwritable = await unwritableReason(path.dirname(target));
  if (unwritable)
    refuse(
      `cannot be written: ${unwritable}, and the new site is created beside \`path\` before it takes its place. Make it writable for the runner, or choose another \`path\`.`,
    );
  const sibling = path.basename(siblingPath(target, 'previous'));
  if (Buffer.byteLength(sibling) > NAME_MAX)
    refuse(
      `has a name too long to create the new site beside it under a name of its own (${sibling.replace(/-\d+(?:-[0-9a-f]{8})?-[0-9a-f]+$/, '-…')}, more than ${NAME_MAX} bytes): choose a name of at most ${NAME_MAX - (Buffer.byteLength(sibling) - Buffer.byteLength(path.basename(target)))} bytes.`,
    );
}

/**
 * Decides whether an archive kept as a file (`extract: false`) may be written into `dir`
 * under one of `names` (the extension depends on the format the storage serves). The
 * directory is not replaced, so it may hold other files; an existing archive of the same
 * name is overwritten only when its manifest beside it says this action wrote it.
 * Returns the archives there that it wrote, by name, as their manifests record them.
 */
export async function inspectArchiveTarget(
  dir: string,
  names: readonly string[],
  rules: TargetRules,
  given?: string,
  signal?: AbortSignal,
): Promise<Map<string, ArchiveBytes>> {
  const ours = new Map<string, ArchiveBytes>();
  const shown = describePath(dir, given);
  if (!(await checkArchivePlace(dir, rules, given))) return ours;
  for (const name of names) {
    const file = path.join(dir, name);
    // The manifest beside it is written too: a file of the user's there is theirs.
    const manifest = archiveManifestName(name);
    const manifestStat = await lstatOrUndefined(path.join(dir, manifest));
    if (manifestStat !== undefined && !rules.overwrite) {
      const read = manifestStat.isFile()
        ? await readManifest(path.join(dir, manifest))
        : { kind: 'invalid' as const };
      if (read.kind !== 'valid' || read.manifest.archive.file !== name) {
        throw new TargetRefusal(
          `${shown} already holds ${manifest}, which is not the export manifest this action writes beside ${name}: refusing to overwrite it. Move it away, choose another \`path\`, or ${optIn(rules)}.`,
        );
      }
    }
    const existing = await lstatOrUndefined(file);
    if (existing === undefined) continue;
    if (!existing.isFile()) {
      throw new TargetRefusal(
        `${shown} already holds ${name}, which is not a regular file: remove it or choose another \`path\`.`,
      );
    }
    const kept = await keptArchive(dir, name, existing, signal);
    if (typeof kept === 'object' && 'sha256' in kept) ours.set(name, kept);
    else if (!rules.overwrite) {
      const manifest = archiveManifestName(name);
      const unreadable = typeof kept === 'object' ? kept.unreadable : undefined;
      const why =
        kept === 'changed'
          ? `which is not the archive its export manifest (${manifest}) describes (changed or replaced since this action wrote it)`
          : unreadable !== undefined
            ? `which could not be read (${unreadable}) to check it is the archive its export manifest (${manifest}) describes`
            : `and no export manifest (${manifest}) says this action wrote it`;
      throw new TargetRefusal(
        `${shown} already holds ${name}, ${why}: refusing to overwrite it. ${unreadable !== undefined ? 'Make it readable for the runner, move it away' : 'Move it away'}, choose another \`path\`, or ${optIn(rules)}.`,
      );
    }
  }
  return ours;
}

/**
 * The checks of the directory `dir` an archive is kept in by where it is, not by what it
 * holds: made before anything is written into it (the lock), and again by
 * inspectArchiveTarget. False when there is no such directory yet.
 */
export async function checkArchivePlace(
  dir: string,
  rules: TargetRules,
  given?: string,
): Promise<boolean> {
  const shown = describePath(dir, given);
  // Writing one file into the workspace is fine; replacing the workspace is not.
  if (!(
    contains(dir, rules.workspace, rules.platform) && contains(rules.workspace, dir, rules.platform)
  )) {
    const why = await protectedReasonThroughLinks(dir, rules);
    if (why)
      throw new TargetRefusal(
        `${shown} is not written into: ${why}. Choose a directory of its own.`,
      );
  }
  const unwritable = await unwritableReason(dir);
  if (unwritable)
    throw new TargetRefusal(
      `${shown} is not written into: ${unwritable}. Make it writable for the runner, or choose another \`path\`.`,
    );
  const stat = await lstatOrUndefined(dir);
  if (stat === undefined) return false;
  if (stat.isSymbolicLink()) {
    const to = await fs.readlink(dir).catch(() => '?');
    throw new TargetRefusal(
      `${shown} is a symbolic link (to ${to}): give the directory itself as \`path\`.`,
    );
  }
  if (!stat.isDirectory()) {
    throw new TargetRefusal(
      `${shown} exists and is not a directory: remove it or choose another \`path\`.`,
    );
  }
  return true;
}

/**
 * The archive `name` in `dir` as the manifest beside it records it; 'changed' when that
 * manifest names it but the file is not what it describes (edited or replaced since);
 * why, when it had to be read and could not be; or undefined when there is no such
 * manifest. The archive it names is known by its size, and, unless it is older than the
 * manifest in both its times (see unchanged.ts), by its SHA-256. The one it names in
 * `replacing` was there when a run wrote the manifest, before renaming the new archive
 * over it, and is known by its SHA-256: it is what a run killed between the two left,
 * and only those exact bytes are ours.
 */
async function keptArchive(
  dir: string,
  name: string,
  archive: Stats,
  signal?: AbortSignal,
): Promise<ArchiveBytes | 'changed' | Unreadable | undefined> {
  const manifestFile = path.join(dir, archiveManifestName(name));
  const read = await readManifest(manifestFile);
  if (read.kind !== 'valid' || read.manifest.archive.file !== name) return undefined;
  const named = read.manifest.archive;
  const { replacing } = read.manifest;
  const sized = [named, ...(replacing && replacing.sha256 !== named.sha256 ? [replacing] : [])]
    .filter((bytes) => bytes.sizeBytes === archive.size)
    .map(({ sha256, sizeBytes }) => ({ sha256, sizeBytes }));
  const only = sized.length === 1 ? sized[0] : undefined;
  if (
    only?.sha256 === named.sha256 &&
    !touchedSince(archive, provenBefore(await fs.lstat(manifestFile)))
  ) {
    return only;
  }
  if (sized.length === 0) return 'changed';
  // Touched since, or one of two of the same size: the bytes tell.
  const actual = await sha256OfLargeFile(path.join(dir, name), signal);
  if (typeof actual !== 'string') return actual;
  return sized.find((bytes) => bytes.sha256 === actual) ?? 'changed';
}

/** The manifest kept beside an archive file. */
export function archiveManifestName(archiveName: string): string {
  return `${archiveName}.static-export.json`;
}

/** `"docs" (/home/runner/work/repo/repo/docs)`: what the user wrote and where it leads. */
function describePath(target: string, given?: string): string {
  return given !== undefined && given !== target ? `"${given}" (${target})` : target;
}

/** `lstat`, or undefined where nothing is: missing, or below a file (ENOTDIR). */
async function lstatOrUndefined(file: string) {
  return fs.lstat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  });
}

/**
 * The protected rules applied to `target` as written and as it really resolves: a
 * symlink on the way must not lead into a directory that may not be replaced.
 */
async function protectedReasonThroughLinks(
  target: string,
  rules: ProtectedContext,
): Promise<string | undefined> {
  const lexical = protectedReason(target, rules);
  if (lexical) return lexical;
  const real = await realPathOfPlanned(target);
  if (real === target) return undefined;
  const realRules: ProtectedContext = {
    ...rules,
    workspace: await realPathOfPlanned(rules.workspace),
    ...(rules.home ? { home: await realPathOfPlanned(rules.home) } : {}),
    runnerDirs: await Promise.all(rules.runnerDirs.map(realPathOfPlanned)),
  };
  const why = protectedReason(real, realRules);
  return why ? `${why} (it resolves to ${real})` : undefined;
}

/**
 * Where `target` really is, when that is outside the workspace: a symbolic link among
 * its parents (`www -> /srv/www`) leads outside from a path written inside.
 */
async function realPathOutsideWorkspace(
  target: string,
  rules: TargetRules,
): Promise<string | undefined> {
  const [real, workspace] = await Promise.all([
    realPathOfPlanned(target),
    realPathOfPlanned(rules.workspace),
  ]);
  return contains(workspace, real, rules.platform) ? undefined : real;
}

/**
 * The protected rules applied by device and inode: a bind mount (or any second mount)
 * reaches the workspace or one of its parents by a path that no path rule recognises.
 */
async function protectedReasonThroughMounts(
  target: string,
  rules: ProtectedContext,
): Promise<string | undefined> {
  const identity = await identityOf(target);
  if (identity === undefined) return undefined;
  const named = [
    { name: 'the workspace', dir: rules.workspace },
    ...(rules.home ? [{ name: 'the home directory', dir: rules.home }] : []),
    ...rules.runnerDirs.map((dir) => ({
      name: `the temporary or tool-cache directory ${dir}`,
      dir,
    })),
  ];
  const lineages: ProtectedLineage[] = await Promise.all(
    named.map(async ({ name, dir }) => ({ name, identities: await lineageOf(dir) })),
  );
  return protectedReasonByIdentity(identity, lineages);
}

/** The identities of `dir` (when it exists) and of each of its parents, up to the root. */
async function lineageOf(dir: string): Promise<(DirectoryIdentity | undefined)[]> {
  const identities: (DirectoryIdentity | undefined)[] = [];
  let at = await realPathOfPlanned(dir);
  for (;;) {
    identities.push(await identityOf(at));
    const parent = path.dirname(at);
    if (parent === at) return identities;
    at = parent;
  }
}

/**
 * Why nothing can be created in `dir` (or, when it does not exist yet, in the nearest
 * parent that does): a read-only place is refused before the export, not after it.
 */
async function unwritableReason(dir: string): Promise<string | undefined> {
  let at = path.resolve(dir);
  let found = await lstatOrUndefined(at);
  while (found === undefined && path.dirname(at) !== at) {
    at = path.dirname(at);
    found = await lstatOrUndefined(at);
  }
  // What the directories would be made in: a link that leads nowhere, or a file.
  const followed = found?.isSymbolicLink() ? await fs.stat(at).catch(() => undefined) : found;
  if (found?.isSymbolicLink() && followed === undefined) {
    const to = await fs.readlink(at).catch(() => '?');
    return `${at} is a symbolic link to ${to}, which does not exist`;
  }
  if (followed !== undefined && !followed.isDirectory()) return `${at} is a file, not a directory`;
  try {
    await fs.access(at, fsConstants.W_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${at} is on a read-only file system (EROFS)`;
    if (code === 'EACCES' || code === 'EPERM') return `${at} is not writable (${code})`;
    throw err;
  }
}

/**
 * Why a file the action writes beside the site (its Helm values, its change report) must
 * not be written at `file`: inside a system directory or the checkout's `.git`, by its
 * own path or the one its links lead to. Undefined when it may be written.
 */
export async function protectedFileReason(
  file: string,
  rules: ProtectedContext,
): Promise<string | undefined> {
  const given = path.resolve(file);
  const real = await realPathOfPlanned(file);
  const gitDirs = [
    path.join(rules.workspace, '.git'),
    path.join(await realPathOfPlanned(rules.workspace), '.git'),
  ];
  for (const at of given === real ? [given] : [given, real]) {
    const how = at === given ? 'is' : 'leads, through a link,';
    const system = systemTreeOf(at, rules.platform);
    if (system) return `it ${how} inside ${system}, a system directory`;
    if (gitDirs.some((git) => contains(git, at, rules.platform))) {
      return `it ${how} inside the checkout's .git directory`;
    }
  }
  return undefined;
}

/** What the runner may not read inside `dir` cannot be checked, nor replaced safely. */
function unreadable(err: NodeJS.ErrnoException, dir: string): never {
  if (err.code !== 'EACCES' && err.code !== 'EPERM') throw err;
  const where = err.path === undefined ? dir : err.path;
  const inside = path.relative(dir, where);
  throw new TargetRefusal(
    `${dir} holds ${inside === '' ? 'entries' : `${inside}, a directory`} the runner cannot read (${err.code}), so what it holds cannot be checked: make it readable for the runner, or choose another \`path\`.`,
  );
}

/** The sticky bit of a directory's mode. */
const STICKY = 0o1000;

/** Longest name of a directory entry on Linux and macOS (bytes). */
const NAME_MAX = 255;

/** The real path of `target`, or of its deepest existing parent with the rest appended. */
export async function realPathOfPlanned(target: string): Promise<string> {
  const missing: string[] = [];
  let at = path.resolve(target);
  for (;;) {
    try {
      return path.join(await fs.realpath(at), ...missing.reverse());
    } catch (err) {
      // Missing, or below a file: the part that exists is resolved, and the rest follows.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(target);
      missing.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * An empty directory, an earlier export (its manifest, nothing it does not list, and the
 * listed files as it wrote them), or something else.
 */
async function describeDirectory(dir: string): Promise<TargetState> {
  // Empty directories hold no data: only files, links and other entries count.
  const items = (await readTree(dir).catch((err: NodeJS.ErrnoException) => unreadable(err, dir)))
    .filter((entry) => !entry.dirent.isDirectory())
    .map((entry) => entry.path);
  if (items.length === 0) return { kind: 'empty' };

  const read = await readManifest(path.join(dir, MANIFEST_NAME));
  if (read.kind === 'valid') {
    const listed = new Set([
      MANIFEST_NAME,
      ...read.manifest.files.map((f) => f.path),
      ...read.manifest.symlinks.map((s) => s.path),
    ]);
    const extra = items.filter((item) => !listed.has(item)).sort();
    if (extra.length > 0) {
      return {
        kind: 'foreign',
        description: `holds an earlier export plus ${count(extra.length, 'file')} that it did not contain (${sample(extra)})`,
        manifest: read.manifest,
      };
    }
    const changed = await changedSinceExport(dir, read.manifest);
    if (changed.length === 0) return { kind: 'export', manifest: read.manifest };
    return {
      kind: 'foreign',
      description: `holds an earlier export whose files were changed since (${sample(changed)})`,
      manifest: read.manifest,
    };
  }
  const sorted = items.sort();
  const why =
    read.kind === 'invalid'
      ? read.newer === undefined
        ? `its ${MANIFEST_NAME} is not a valid export manifest (${shortened(read.reason)})`
        : `its ${MANIFEST_NAME} ${writtenByNewer(read.newer)}`
      : `no export manifest (${MANIFEST_NAME}) says this action wrote it`;
  return {
    kind: 'foreign',
    description: `holds ${count(sorted.length, 'file')} (${sample(sorted)}) and ${why}`,
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A file name, or what a manifest's reader said about it, cut to 80 characters. */
function shortened(item: string): string {
  return item.length > 80 ? `${item.slice(0, 79).replace(/[\uD800-\uDBFF]$/, '')}…` : item;
}

function sample(items: readonly string[]): string {
  const shown = items.slice(0, SAMPLE).map(shortened);
  return `${shown.join(', ')}${items.length > SAMPLE ? `, … ${items.length - SAMPLE} more` : ''}`;
}

/** The manifest of the earlier export `path` holds, alone or (with `overwrite`) beside other files. */
export function earlierExportIn(state: TargetState | undefined): Manifest | undefined {
  return state?.kind === 'export' || state?.kind === 'foreign' ? state.manifest : undefined;
}
