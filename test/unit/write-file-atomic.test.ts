import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/deliver/place.js';

/**
 * A run killed outright (SIGKILL) leaves the temporary file of writeFileAtomic beside the
 * file it was writing (helm-values-file, changes-file, the readiness reports): the next
 * run writing that file removes it, and never one of a run still going.
 */

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-write-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('writeFileAtomic and the temporary files of killed runs', () => {
  it("removes a dead run's temporary file beside the file, and keeps a live run's", async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const dead = `.values.yaml.partial-${deadPid()}-0123abcd`;
      const running = `.values.yaml.partial-${live.pid}-89abcdef`;
      // Another file's, and a user's file that only looks like one: never touched.
      const other = `.other.yaml.partial-${deadPid()}-0123abcd`;
      const users = '.values.yaml.partial-2024-12';
      for (const name of [dead, running, other, users]) {
        await fs.writeFile(path.join(dir, name), 'half written');
      }
      await writeFileAtomic(path.join(dir, 'values.yaml'), 'staticExport: {}\n');
      expect((await fs.readdir(dir)).sort()).toEqual([running, other, users, 'values.yaml'].sort());
    } finally {
      live.kill();
    }
  });
});

describe('writeFileAtomic where a file stands in the way', () => {
  it.each([
    ['the folder itself is a file', 'blocker/values.yaml'],
    ['a folder above it is a file', 'blocker/deploy/values.yaml'],
  ])('names the file it was to write when %s', async (_, relative) => {
    await fs.writeFile(path.join(dir, 'blocker'), 'a file, not a folder');
    const file = path.join(dir, relative);
    await expect(writeFileAtomic(file, 'x: 1\n')).rejects.toThrow(
      `Could not write ${file}: a part of the path is not a directory (ENOTDIR).`,
    );
  });
});
