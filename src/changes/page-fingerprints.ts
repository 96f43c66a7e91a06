import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { PageRecord } from '../deliver/manifest.js';
import {
  FINGERPRINT_SCHEME,
  fingerprintPage,
  hasLayout,
  type Markup,
  markupDigest,
  sameMarkup,
  withLayout,
} from './fingerprint.js';
import { isPage } from './site-files.js';

/** A page of the earlier export, as its manifest lists it (a page it could not read has no record). */
export interface EarlierPage {
  sha256: string;
  page?: PageRecord;
}

/** A file as the extraction wrote it: its path in the site, size and SHA-256. */
export interface WrittenPage {
  path: string;
  size: number;
  sha256: string;
  /** Its markup digest, when worked out already. */
  markup?: Markup;
}

export interface PageFingerprints {
  scheme: number;
  byPath: Map<string, PageRecord>;
  /** Pages whose bytes or markup matched the earlier export's, so their hashes were carried over. */
  carriedOver: number;
  /** Pages that could not be read, with why (`guides/a.html: ENOENT`): they have no fingerprint. */
  unreadable: string[];
  /** Every page of the site, fingerprinted or not, and every other file: what the report compares. */
  pageFiles: WrittenPage[];
  otherFiles: WrittenPage[];
}

/** What one look at a page gave, and for which bytes (by their SHA-256). */
export type Outcome =
  | { sha256: string; page: PageRecord; carriedOver: boolean }
  | { sha256: string; unreadable: string };

/**
 * Fingerprints the pages of an extracted site, each as soon as it is written (`add`), then
 * whatever is missing once the site is complete (`finish`). Runs the same in a worker
 * thread or in the calling one. A page whose bytes equal the earlier export's keeps its
 * earlier fingerprint unread; one whose markup is unchanged keeps it without a scan.
 *
 * A path may be added more than once (an archive entry replaced by a later one, a
 * download restarted): the last look wins, and `finish` looks again at any page whose
 * last look was at other bytes than the ones the site ends up with.
 */
export class PageFingerprintJob {
  readonly #outcomes = new Map<string, Outcome>();
  /** One buffer for every page: their sizes are known from the extraction. */
  #buffer = Buffer.allocUnsafe(256 * 1024);

  constructor(
    private readonly root: string,
    private readonly earlier?: ReadonlyMap<string, EarlierPage>,
  ) {}

  /** A file was written in full: fingerprints it now if it is a page (from `bytes` when given). */
  add(file: WrittenPage, bytes?: Buffer): void {
    if (!isPage(file.path)) return;
    this.#outcomes.set(file.path, this.#look(file, bytes));
  }

  /**
   * Keeps the earlier fingerprint of a page that has the same bytes, or the same markup
   * (from `bytes`, the page as written), as in the earlier export. Returns what is left
   * to scan (with its markup digest when it was worked out), or undefined.
   */
  triage(file: WrittenPage, bytes?: Buffer): WrittenPage | undefined {
    if (!isPage(file.path)) return undefined;
    const previous = this.earlier?.get(file.path);
    if (previous?.page === undefined) return file;
    let page = previous.page;
    if (previous.sha256 !== file.sha256) {
      if (bytes === undefined) return file;
      if (hasLayout(page)) {
        if (!sameMarkup(bytes, page)) return file;
      } else {
        // No layout to walk (an earlier form, or none): the full digest decides, and its
        // layout goes with the page carried over, for the next export.
        const markup = markupDigest(bytes);
        if (markup.digest !== page.markup) return { ...file, markup };
        page = withLayout(page, markup.layout);
      }
    }
    this.#outcomes.set(file.path, { sha256: file.sha256, page, carriedOver: true });
    return undefined;
  }

  /** What this job has looked at so far, by path: what a worker hands back to the job that finishes. */
  outcomes(): Map<string, Outcome> {
    return this.#outcomes;
  }

  /** Takes another job's looks (a worker's) as this one's own. */
  adopt(outcomes: ReadonlyMap<string, Outcome>): void {
    for (const [file, outcome] of outcomes) this.#outcomes.set(file, outcome);
  }

  /** Fingerprints of every page among `files` (the site as extracted, in full). */
  finish(files: Iterable<WrittenPage>): PageFingerprints {
    const byPath = new Map<string, PageRecord>();
    const unreadable: string[] = [];
    const pageFiles: WrittenPage[] = [];
    const otherFiles: WrittenPage[] = [];
    let carriedOver = 0;
    for (const file of files) {
      if (!isPage(file.path)) {
        otherFiles.push(file);
        continue;
      }
      pageFiles.push(file);
      let outcome = this.#outcomes.get(file.path);
      if (outcome?.sha256 !== file.sha256 || 'unreadable' in outcome) outcome = this.#look(file);
      if ('unreadable' in outcome) {
        unreadable.push(`${file.path}: ${outcome.unreadable}`);
        continue;
      }
      byPath.set(file.path, outcome.page);
      if (outcome.carriedOver) carriedOver += 1;
    }
    return { scheme: FINGERPRINT_SCHEME, byPath, carriedOver, unreadable, pageFiles, otherFiles };
  }

  #look(file: WrittenPage, written?: Buffer): Outcome {
    const previous = this.earlier?.get(file.path);
    if (previous?.page !== undefined && previous.sha256 === file.sha256) {
      return { sha256: file.sha256, page: previous.page, carriedOver: true };
    }
    let bytes = written;
    if (bytes === undefined) {
      try {
        if (file.size > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(file.size);
        bytes = readInto(path.join(this.root, ...file.path.split('/')), this.#buffer, file.size);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return { sha256: file.sha256, unreadable: code ?? String(err) };
      }
    }
    const page = fingerprintPage(bytes, previous?.page, file.markup);
    // The same markup keeps the earlier fingerprint (its layout renewed); another is a scan.
    return { sha256: file.sha256, page, carriedOver: page.markup === previous?.page?.markup };
  }
}

/** The file's first `size` bytes, read into `buffer` with three system calls. */
function readInto(file: string, buffer: Buffer, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
