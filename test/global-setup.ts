import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Every temporary directory of a test run (workspaces, runner temp, archives) goes under
 * one root that is removed at the end, so runs leave nothing behind in the system's tmp.
 */
export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'static-export-tests-'));
  process.env.TMPDIR = root;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
