import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ActionRun } from '../../scripts/runner.js';
import { errorLines, listTree } from '../support/action.js';

/** Every run of the suite is in debug mode: secrets must stay out of debug lines too. */
export const DEBUG = { RUNNER_DEBUG: '1' };

/** A workspace whose `site/` already holds an earlier export, to prove it is left alone. */
export async function workspaceWithSite(): Promise<{ workspace: string; site: string }> {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-suite-'));
  const site = path.join(workspace, 'site');
  await fs.mkdir(site);
  await fs.writeFile(path.join(site, 'previous.html'), 'previous export');
  return { workspace, site };
}

/** The run failed with exactly one `::error::` line matching `message`. */
export function expectOneClearError(run: ActionRun, message: RegExp): void {
  expect(run.code, run.stdout).toBe(1);
  const lines = errorLines(run);
  expect(lines, run.stdout).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

/** Nothing half-written: the earlier site as it was, no stray files, no temporary files. */
export async function expectUntouched(run: ActionRun, workspace: string): Promise<void> {
  expect(await listTree(path.join(workspace, 'site'))).toEqual(['previous.html']);
  expect(await fs.readdir(workspace)).toEqual(['site']);
  expect(await fs.readdir(run.tempDir)).toEqual([]);
}
