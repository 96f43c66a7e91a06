import { UnsafeArchiveError } from '../../errors.js';
import { printable } from './entries.js';
import type { ParsedHeader } from './tar-parser.js';
import type { SparseRun } from './writer.js';

/** More runs than this in one file is no site a person made: refuse rather than hold them. */
const MAX_RUNS = 1_000_000;
const BLOCK = 512;

/**
 * A sparse file as GNU tar and bsdtar store it: the runs of real data (stored back to
 * back in the entry), and the full size with the holes.
 */
export interface SparseFile {
  /** The file's real name (PAX 0.1 and 1.0 hide it in GNU.sparse.name). */
  name?: string;
  realSize: number;
  /** Known from the header; for PAX 1.0 the map is read from the start of the data. */
  runs?: SparseRun[];
}

/**
 * Reads the sparse map of an entry, in any of the formats GNU tar writes: old GNU ('S'
 * headers with extension blocks), PAX 0.0 (repeated GNU.sparse.offset/numbytes), 0.1
 * (GNU.sparse.map) and 1.0 (the map in the data). `undefined` for an ordinary entry.
 */
export function sparseFileOf(header: ParsedHeader & { name: string }): SparseFile | undefined {
  if (header.gnuSparse) {
    return { realSize: header.gnuSparse.realSize, runs: checkRuns(header, header.gnuSparse.runs) };
  }
  const records = header.paxRecords;
  if (!records?.some(([key]) => key.startsWith('GNU.sparse.'))) return undefined;
  const value = (key: string) => records.findLast(([k]) => k === key)?.[1];
  const name = value('GNU.sparse.name');
  const named = name !== undefined ? { name } : {};
  const major = value('GNU.sparse.major');
  if (major !== undefined) {
    if (major !== '1' || value('GNU.sparse.minor') !== '0') {
      throw unsupported(header, `sparse format ${major}.${value('GNU.sparse.minor')}`);
    }
    return { ...named, realSize: number(header, value('GNU.sparse.realsize')) };
  }
  const realSize = number(header, value('GNU.sparse.size'));
  const map = value('GNU.sparse.map');
  const numbers =
    map !== undefined
      ? map.split(',').map((n) => number(header, n))
      : records
          .filter(([key]) => key === 'GNU.sparse.offset' || key === 'GNU.sparse.numbytes')
          .map(([, n]) => number(header, n));
  return { ...named, realSize, runs: checkRuns(header, pairs(header, numbers)) };
}

/**
 * For PAX 1.0: reads the map from the start of the entry's data (decimal numbers, one a
 * line, padded to a block) and returns the runs and the data that follows.
 */
export async function readMapFromData(
  header: { name: string },
  content: AsyncIterable<Buffer>,
): Promise<{ runs: SparseRun[]; data: AsyncIterable<Buffer> }> {
  const iterator = content[Symbol.asyncIterator]();
  const numbers: number[] = [];
  let expected: number | undefined;
  let line = '';
  let consumed = 0;
  let rest: Buffer | undefined;
  while (expected === undefined || numbers.length < expected) {
    const next = await iterator.next();
    if (next.done) throw corrupt(header, 'ends inside its sparse map');
    let chunk = next.value;
    let at = 0;
    while (at < chunk.length && (expected === undefined || numbers.length < expected)) {
      const newline = chunk.indexOf(0x0a, at);
      if (newline < 0) {
        line += chunk.toString('latin1', at);
        if (line.length > 20) throw corrupt(header, 'has an unreadable sparse map');
        at = chunk.length;
        break;
      }
      line += chunk.toString('latin1', at, newline);
      numbers.push(number(header, line));
      line = '';
      at = newline + 1;
      if (expected === undefined) {
        const count = numbers.pop() as number;
        if (count > MAX_RUNS) throw unsupported(header, `a sparse map of ${count} runs`);
        expected = count * 2;
      }
    }
    consumed += at;
    chunk = chunk.subarray(at);
    // The map is padded with zeros to the end of its block.
    const padding = (BLOCK - (consumed % BLOCK)) % BLOCK;
    if (expected !== undefined && numbers.length >= expected) {
      rest = await skip(iterator, chunk, padding, header);
      break;
    }
  }
  const runs = checkRuns(header, pairs(header, numbers));
  return {
    runs,
    data: (async function* () {
      if (rest !== undefined && rest.length > 0) yield rest;
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield next.value;
    })(),
  };
}

async function skip(
  iterator: AsyncIterator<Buffer>,
  first: Buffer,
  count: number,
  header: { name: string },
): Promise<Buffer> {
  let chunk = first;
  let left = count;
  while (chunk.length < left) {
    left -= chunk.length;
    const next = await iterator.next();
    if (next.done) throw corrupt(header, 'ends inside its sparse map');
    chunk = next.value;
  }
  return chunk.subarray(left);
}

function pairs(header: { name: string }, numbers: number[]): SparseRun[] {
  if (numbers.length % 2 !== 0) throw corrupt(header, 'has a sparse map with an odd count');
  if (numbers.length / 2 > MAX_RUNS) {
    throw unsupported(header, `a sparse map of ${numbers.length / 2} runs`);
  }
  const runs: SparseRun[] = [];
  for (let i = 0; i < numbers.length; i += 2) {
    runs.push({ offset: numbers[i] as number, size: numbers[i + 1] as number });
  }
  return runs;
}

/** Runs must be in order and must not overlap: each byte is written once. */
function checkRuns(header: { name: string }, runs: SparseRun[]): SparseRun[] {
  let end = 0;
  for (const run of runs) {
    if (run.offset < end) throw corrupt(header, 'has a sparse map whose runs overlap');
    end = run.offset + run.size;
  }
  return runs;
}

/** Checks a map against the file's size once both are known. */
export function checkRunsFit(header: { name: string }, runs: SparseRun[], realSize: number): void {
  const last = runs[runs.length - 1];
  if (last !== undefined && last.offset + last.size > realSize) {
    throw corrupt(header, 'has a sparse map that runs past the end of the file');
  }
}

function number(header: { name: string }, text: string | undefined): number {
  const value = text !== undefined && /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value)) throw corrupt(header, 'has an unreadable sparse map');
  return value;
}

function corrupt(header: { name: string }, why: string): UnsafeArchiveError {
  return new UnsafeArchiveError(
    `The tar archive is corrupt: the sparse file "${printable(header.name)}" ${why}.`,
  );
}

function unsupported(header: { name: string }, what: string): UnsafeArchiveError {
  return new UnsafeArchiveError(
    `Refusing to extract the archive: entry "${printable(header.name)}" uses ${what}, which this action does not read.`,
  );
}
