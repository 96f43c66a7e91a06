/**
 * macOS metadata in archives: an archive made on macOS (Finder's Compress, `ditto`, or
 * tar without `COPYFILE_DISABLE=1`) carries each file's extended attributes and resource
 * fork as an AppleDouble companion, `._name` beside the file (tar) or under a `__MACOSX/`
 * folder at the archive's root (zip). Neither is part of the site.
 */

/** The first bytes of every AppleDouble file (RFC 1740). */
export const APPLE_DOUBLE_MAGIC = Buffer.from([0x00, 0x05, 0x16, 0x07]);

/** The folder Finder and `ditto` put the companions of a zip's files in. */
const MACOSX_FOLDER = '__MACOSX';

/**
 * Whether the last component of a file entry's name (a file's never ends in a separator)
 * starts with `._`: its first bytes are read before it is planned, to tell a companion
 * from a page. No regular expression: it runs for every file of the archive.
 */
export function mayBeAppleDouble(name: string): boolean {
  const start = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1;
  return name.startsWith('._', start);
}

/**
 * Whether an entry, its name already normalized into `parts`, is macOS metadata: a file
 * or directory inside `__MACOSX/` at the root, or a `._` file whose content (`head`, its
 * first bytes) is AppleDouble. A real page named `._x.html` stays; links never match.
 */
export function isMacMetadata(
  kind: string,
  parts: readonly string[],
  head: Buffer | undefined,
): boolean {
  if (parts[0] === MACOSX_FOLDER && (kind === 'directory' || (kind === 'file' && parts.length > 1)))
    return true;
  if (kind !== 'file' || head === undefined) return false;
  const leaf = parts[parts.length - 1] as string;
  return (
    leaf.startsWith('._') &&
    head.length >= APPLE_DOUBLE_MAGIC.length &&
    APPLE_DOUBLE_MAGIC.equals(head.subarray(0, APPLE_DOUBLE_MAGIC.length))
  );
}

/**
 * Reads the first `bytes` of `chunks` (fewer when it is shorter), and gives back the whole
 * content still to be read from its start: the chunks already read, then the rest.
 */
export async function peekHead(
  chunks: AsyncIterable<Buffer>,
  bytes = APPLE_DOUBLE_MAGIC.length,
): Promise<{ head: Buffer; content: AsyncIterable<Buffer> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const read: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    read.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(
    read.map((chunk) => chunk.subarray(0, bytes)),
    Math.min(length, bytes),
  );
  async function* content(): AsyncGenerator<Buffer> {
    yield* read;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
      yield next.value;
  }
  return { head, content: content() };
}
