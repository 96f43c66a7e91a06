import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';

export interface TarEntrySpec {
  name: string;
  type?: tar.Header['type'];
  content?: string | Buffer;
  linkname?: string;
  mode?: number;
  /** Extra pax records; any value makes the name travel in a pax header, verbatim. */
  pax?: Record<string, string>;
}

/** A tar (or tar.gz) built entry by entry, names and types exactly as given. */
export async function tarOf(entries: TarEntrySpec[], gzip = true): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    const content = entry.content === undefined ? undefined : Buffer.from(entry.content);
    await new Promise<void>((resolve, reject) => {
      const header: tar.Header = {
        name: entry.name,
        type: entry.type ?? 'file',
        mode: entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644),
        size: content?.length ?? 0,
        mtime: new Date(0),
        linkname: entry.linkname ?? '',
        uid: 0,
        gid: 0,
        uname: '',
        gname: '',
        devmajor: 0,
        devminor: 0,
        ...(entry.pax ? { pax: entry.pax } : {}),
      };
      if (content) pack.entry(header, content, (err) => (err ? reject(err) : resolve()));
      else pack.entry(header, (err) => (err ? reject(err) : resolve())).end(null);
    });
  }
  pack.finalize();
  await done;
  const archive = Buffer.concat(chunks);
  return gzip ? gzipSync(archive) : archive;
}

export interface ZipEntrySpec {
  name: string;
  content?: string | Buffer;
  symlinkTo?: string;
  directory?: boolean;
}

/** A zip built with yazl (which itself refuses `..` and absolute names). */
export async function zipOf(entries: ZipEntrySpec[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.directory) zip.addEmptyDirectory(entry.name, { mtime: new Date(0) });
    else if (entry.symlinkTo !== undefined) {
      zip.addBuffer(Buffer.from(entry.symlinkTo), entry.name, {
        mode: 0o120777,
        mtime: new Date(0),
      });
    } else zip.addBuffer(Buffer.from(entry.content ?? ''), entry.name, { mtime: new Date(0) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A small but real site, to wrap around a hostile entry. */
export const SITE: TarEntrySpec[] = [
  {
    name: 'index.html',
    content: '<!doctype html><title>Docs</title><a href="guides/intro.html">Intro</a>',
  },
  { name: 'guides/', type: 'directory' },
  { name: 'guides/intro.html', content: '<!doctype html><title>Intro</title>' },
];
