import fs from 'node:fs';

/**
 * Writes all of `data` at `position`. A write to a disk that is nearly full writes what
 * fits and says how much, without an error: only the next one fails (ENOSPC).
 */
export function writeAll(fd: number, data: Uint8Array, position: number): void {
  let done = 0;
  while (done < data.length) {
    done += fs.writeSync(fd, data, done, data.length - done, position + done);
  }
}
