import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Proxy variables of the machine: in-process runs read them, as the action does. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'];

/**
 * Every temporary directory of a test run (workspaces, runner temp, archives) goes under
 * one root that is removed at the end, so runs leave nothing behind in the system's tmp.
 * The machine's proxy settings are dropped: tests talk to loopback only, and the proxy
 * cases set their own.
 */
export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'static-export-tests-'));
  process.env.TMPDIR = root;
  for (const name of PROXY_VARIABLES) {
    delete process.env[name];
    delete process.env[name.toLowerCase()];
  }
  return () => fs.rmSync(root, { recursive: true, force: true });
}
