import fs from 'node:fs/promises';
import path from 'node:path';
import { type DiskSpace, LocalFileError } from '../errors.js';

/**
 * A full disk (ENOSPC, EDQUOT) said with what is known of its space: what the run had
 * written or needed there (`known`) and, for ENOSPC, what is free on that file system
 * (a quota's room is not known). Any other error is returned as it is.
 */
export async function withDiskSpace(
  err: unknown,
  known: Pick<DiskSpace, 'written' | 'needed'> = {},
): Promise<unknown> {
  if (!isFullDisk(err)) return err;
  return err.withSpace({ ...known, ...(err.code === 'ENOSPC' ? await freeSpaceAt(err.path) : {}) });
}

/** A disk (or a quota) that filled up, as the local file error it was made into. */
export function isFullDisk(err: unknown): err is LocalFileError {
  return err instanceof LocalFileError && (err.code === 'ENOSPC' || err.code === 'EDQUOT');
}

/** What is free on the file system that holds `file`, or its nearest parent that exists. */
async function freeSpaceAt(file: string): Promise<Pick<DiskSpace, 'free' | 'noInodes'>> {
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    try {
      const stats = await fs.statfs(at);
      // A file system that does not count its files (btrfs) says 0 free of 0.
      return { free: stats.bavail * stats.bsize, noInodes: stats.files > 0 && stats.ffree === 0 };
    } catch {
      if (path.dirname(at) === at) return {};
    }
  }
}
