import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Proxy variables of the machine: in-process runs read them, as the action does. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'];

/**
 * A tmpfs when the machine has one: the suite writes and removes tens of thousands of
 * small files, and on a busy disk that costs seconds per case (a 20,000-file zip took 10 s
 * to extract on ext4 here, 1.6 s on tmpfs) without testing anything more.
 */
function memoryBackedTemp(): string | undefined {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return fs.statfsSync('/dev/shm').bavail * fs.statfsSync('/dev/shm').bsize > 2 ** 30
      ? '/dev/shm'
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every temporary directory of a test run (workspaces, runner temp, archives) goes under
 * one root that is removed at the end, so runs leave nothing behind in the system's tmp.
 * The machine's proxy settings are dropped: tests talk to loopback only, and the proxy
 * cases set their own.
 */
export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(memoryBackedTemp() ?? os.tmpdir(), 'static-export-tests-'));
  process.env.TMPDIR = root;
  for (const name of PROXY_VARIABLES) {
    delete process.env[name];
    delete process.env[name.toLowerCase()];
  }
  return () => fs.rmSync(root, { recursive: true, force: true });
}
