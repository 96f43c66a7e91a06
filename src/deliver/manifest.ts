import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { TITLE_CHARS } from '../changes/fingerprint.js';
import { asLocalFileError } from '../errors.js';
import { VERSION } from '../version.js';
import type { SiteContents } from './archive/listing.js';
import { withDiskSpace } from './full-disk.js';
import type { DirectoryIdentity } from './protected.js';

/**
 * The export manifest: a small JSON file at the root of every extracted export (or
 * beside a kept archive) that proves the directory is one this action wrote, and
 * describes it: which export, from which archive, and every file with its size and
 * SHA-256. It holds no secret (no bundle link, no key). It lives inside the tree so that
 * it moves with the site in the same rename and can never describe another tree.
 */
export const MANIFEST_NAME = '.static-export.json';
export const MANIFEST_FORMAT = 'static-export-manifest';
export const MANIFEST_VERSION = 1;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** Half of a UTF-16 surrogate pair without its other half: no URL or file name can hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * A `/`-separated relative path that stays inside the tree, spelled as the extraction
 * writes it: no `.` or empty step, which would name a file the site lists under another
 * path (`guides/./a.html` is `guides/a.html`, compared as another page). A backslash is a
 * character of a name, as the extraction keeps it from a tar or a zip made on Unix
 * (`back\\slash.html`), but never one that a reader taking `\\` for a separator would see
 * leave: no leading backslash, no `..` between backslashes (the extraction refuses both).
 */
const relativePath = z
  .string()
  .min(1)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.startsWith('\\') &&
      !p.split('/').some((s) => s === '..' || s === '.' || s === '') &&
      !(p.includes('\\') && p.split(/[/\\]/).includes('..')) &&
      !LONE_SURROGATE.test(p),
    'is not a relative path inside the export',
  );
/**
 * Text the log and the job summary show (a job id, a domain, a page title): one line
 * without control characters, so that a manifest written by someone else cannot start a
 * workflow command (`::error::…`) on a line of its own.
 */
const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'holds a control character or a line break');

const hex128 = z.string().regex(/^[0-9a-f]{32}$/);

/** An archive by its bytes. */
const archiveBytes = z.object({ sha256: sha256Hex, sizeBytes: z.number().int().nonnegative() });
/** A directory's identity (protected.ts) as JSON holds it: its numbers in decimal. */
const recordedDirectory = z.object({
  dev: z.string().regex(/^\d{1,40}$/),
  ino: z.string().regex(/^\d{1,40}$/),
});
type RecordedDirectory = z.output<typeof recordedDirectory>;
export type ArchiveBytes = z.output<typeof archiveBytes>;

/**
 * What a reader sees on an HTML page (src/changes/fingerprint.ts). Optional within
 * manifest version 1: readers that predate it ignore it, and a manifest without it is
 * compared by file bytes only.
 */
const pageSchema = z.object({
  title: oneLine(TITLE_CHARS).optional(),
  /** CRC-32 and length, in hex, of the page without scripts, nor its head's styles and links. */
  markup: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{1,12}$/),
  /**
   * Where the markup's runs are (the head's end, the runs' lengths, in hex): a guide for
   * the next check only, so one in another form (an earlier one, without `2;`) is
   * dropped, never a reason to refuse.
   */
  layout: z
    .string()
    .max(60_000)
    .regex(/^2;(?:-|[0-9a-f]{1,12});[0-9a-f]{1,12}(?:,[0-9a-f]{1,12})*$/)
    .optional()
    .catch(undefined),
  content: hex128,
  navigation: hex128,
});

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(MANIFEST_VERSION),
  generator: oneLine(200),
  domain: oneLine(253),
  jobId: oneLine(1024),
  exportedAt: z.iso.datetime(),
  pageCount: z.number().int().nonnegative().optional(),
  archive: z.object({
    /** Set when the archive itself is kept: its file name beside the manifest. */
    file: z.string().optional(),
    format: z.enum(['tar.gz', 'tar', 'zip']),
    ...archiveBytes.shape,
  }),
  /**
   * Beside a kept archive, while a run puts `archive` in place of an earlier one of its
   * own: the earlier archive, still there until the new one is renamed over it. Optional
   * within version 1: readers that predate it ignore it.
   */
  replacing: archiveBytes.optional(),
  totals: z.object({
    files: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
  files: z.array(
    z.object({
      path: relativePath,
      size: z.number().int().nonnegative(),
      sha256: sha256Hex,
      executable: z.literal(true).optional(),
      page: pageSchema.optional(),
    }),
  ),
  /** The normalization the page fingerprints were made with; absent without fingerprints. */
  pageFingerprints: z.object({ scheme: z.number().int().positive() }).optional(),
  /**
   * The extracted export's directory as its file system knows it (device and inode, in
   * decimal): the files of another directory, where this manifest was copied, are not
   * proven unchanged by their times. Optional within version 1: absent from a kept
   * archive's manifest, and from those of earlier versions.
   */
  directory: recordedDirectory.optional(),
  symlinks: z.array(z.object({ path: relativePath, target: z.string() })),
});

export type Manifest = z.output<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

/**
 * A manifest whose lists are only read in order: one read from disk, or the one a run is
 * making, whose files come from the extraction's listing each time they are read.
 */
export type ExportManifest = Omit<Manifest, 'files' | 'symlinks'> & {
  files: Iterable<ManifestFile>;
  symlinks: readonly Manifest['symlinks'][number][];
};

export interface ManifestFacts {
  domain: string;
  jobId: string;
  exportedAt: Date;
  pageCount?: number;
  archive: Manifest['archive'];
  /** The kept archive being replaced, while the manifest is written before the new one is in place. */
  replacing?: ArchiveBytes;
  contents?: SiteContents;
  /** Page fingerprints by file path, and the scheme they were made with. */
  pages?: { scheme: number; byPath: ReadonlyMap<string, PageRecord> };
  /** The directory the site was extracted into, which becomes `path`. */
  directory?: DirectoryIdentity;
}

export type PageRecord = z.output<typeof pageSchema>;

export function buildManifest(facts: ManifestFacts): ExportManifest {
  const { contents, pages } = facts;
  function* entries(): Generator<ManifestFile> {
    for (const file of contents?.files ?? []) {
      const entry: ManifestFile = { path: file.path, size: file.size, sha256: file.sha256 };
      if (file.executable) entry.executable = true;
      const page = pages?.byPath.get(file.path);
      if (page !== undefined) entry.page = page;
      yield entry;
    }
  }
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    generator: `static-export-action ${VERSION}`,
    domain: facts.domain,
    jobId: facts.jobId,
    exportedAt: facts.exportedAt.toISOString(),
    ...(facts.pageCount !== undefined ? { pageCount: facts.pageCount } : {}),
    archive: facts.archive,
    ...(facts.replacing ? { replacing: facts.replacing } : {}),
    totals: { files: contents?.fileCount ?? 0, bytes: contents?.fileBytes ?? 0 },
    files: { [Symbol.iterator]: entries },
    ...(pages ? { pageFingerprints: { scheme: pages.scheme } } : {}),
    symlinks: contents?.symlinks ?? [],
    ...(facts.directory ? { directory: recorded(facts.directory) } : {}),
  };
}

function recorded({ dev, ino }: DirectoryIdentity): RecordedDirectory {
  return { dev: String(dev), ino: String(ino) };
}

/** The directory a manifest was written in, or undefined when it names none. */
export function writtenIn(manifest: Pick<Manifest, 'directory'>): DirectoryIdentity | undefined {
  const { directory } = manifest;
  return directory ? { dev: BigInt(directory.dev), ino: BigInt(directory.ino) } : undefined;
}

/** One entry per line: readable in a diff, and a few MB even for 20,000 files. */
export function serializeManifest(manifest: ExportManifest): string {
  return [...manifestText(manifest)].join('');
}

/** Entries of a list serialized together: a piece of the text is a few hundred KB at most. */
const ENTRIES_PER_PIECE = 512;

/**
 * The manifest's text in pieces, in order: the head, then the file list a few hundred
 * entries at a time, then the rest. Written piece by piece, a manifest of 500,000 files
 * never exists as one string, nor as an object per file.
 */
function* manifestText(manifest: ExportManifest): Generator<string> {
  const { files, symlinks, pageFingerprints, ...head } = manifest;
  yield `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "files": `;
  yield* listText(files);
  if (pageFingerprints) yield `,\n  "pageFingerprints": ${JSON.stringify(pageFingerprints)}`;
  yield ',\n  "symlinks": ';
  yield* listText(symlinks);
  yield '\n}\n';
}

function* listText(items: Iterable<unknown>): Generator<string> {
  let lines: string[] = [];
  let first = true;
  const piece = () => {
    const text = `${first ? '[\n' : ',\n'}${lines.join(',\n')}`;
    first = false;
    lines = [];
    return text;
  };
  for (const item of items) {
    lines.push(`    ${JSON.stringify(item)}`);
    if (lines.length === ENTRIES_PER_PIECE) yield piece();
  }
  if (lines.length > 0) yield piece();
  yield first ? '[]' : '\n  ]';
}

/**
 * The largest manifest read, from a file or a URL: one lists at most max-extract-files
 * entries, each a few hundred bytes with its page's fingerprints; far larger is not ours.
 */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

export type ManifestRead = { kind: 'absent' } | ManifestParse;

/** `newer`: the version of a manifest written by a newer action, which this one cannot read. */
export type ManifestParse =
  { kind: 'valid'; manifest: Manifest } | { kind: 'invalid'; reason: string; newer?: number };

/** Parses a manifest's JSON, never trusting it: anything unexpected is `invalid`. */
export function parseManifest(json: unknown): ManifestParse {
  const newer = newerVersion(json);
  if (newer !== undefined) {
    return {
      kind: 'invalid',
      reason: `it ${writtenByNewer(newer)}`,
      newer,
    };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: 'invalid',
      reason: `${issue?.path.join('.') || 'the document'} ${issue?.message ?? 'is invalid'}`,
    };
  }
  return { kind: 'valid', manifest: parsed.data };
}

/** What a manifest of `version`, later than this action reads, is: `its … was written by …`. */
export function writtenByNewer(version: number): string {
  return `was written by a newer version of the action (manifest version ${version}; this one reads version ${MANIFEST_VERSION})`;
}

/**
 * The version of a manifest of our format that a newer action wrote: a whole number above
 * ours, within those a number holds exactly; any other version is no manifest at all.
 */
function newerVersion(json: unknown): number | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { format, version } = json as { format?: unknown; version?: unknown };
  return format === MANIFEST_FORMAT &&
    typeof version === 'number' &&
    Number.isSafeInteger(version) &&
    version > MANIFEST_VERSION
    ? version
    : undefined;
}

/** Reads the manifest at `file`, never trusting it: anything unexpected is `invalid`. */
export async function readManifest(file: string): Promise<ManifestRead> {
  let bytes: Buffer;
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) return { kind: 'invalid', reason: 'it is not a regular file' };
    if (stat.size > MANIFEST_MAX_BYTES) return { kind: 'invalid', reason: 'it is too large' };
    bytes = await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(textOfManifest(bytes));
  } catch {
    return { kind: 'invalid', reason: 'it is not JSON' };
  }
  return parseManifest(json);
}

/**
 * The text of a manifest's bytes, UTF-8 unless a byte order mark says otherwise: a manifest
 * saved again by an editor may start with one, and Windows PowerShell writes UTF-16 with
 * one (`Out-File`, `>`). JSON itself has none.
 */
export function textOfManifest(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    // Swapped into little-endian order; an odd last byte is no character either way.
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2))).swap16();
    return `${swapped.toString('utf16le')}${bytes.length % 2 === 1 ? '\ufffd' : ''}`;
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Writes the manifest into `dir` (a staging directory about to be put in place). */
export async function writeManifest(
  dir: string,
  manifest: ExportManifest,
  name = MANIFEST_NAME,
): Promise<string> {
  const file = path.join(dir, name);
  try {
    const handle = await fs.open(file, 'wx', 0o644);
    try {
      // writeFile writes each piece in full at the current position (write may stop short
      // when the disk fills, which nothing after the last piece would notice).
      for (const piece of manifestText(manifest)) await handle.writeFile(piece);
    } finally {
      await handle.close();
    }
  } catch (err) {
    // A full disk is the runner's to fix, named with the file and the site's size, never a stack.
    throw await withDiskSpace(asLocalFileError(err, file, 'write the export manifest') ?? err, {
      written: manifest.totals.bytes,
    });
  }
  return file;
}
