import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceSite, referenceSite } from '../reliability/support.js';
import { treeDigest } from '../support/action.js';
import { spawnAction } from './support/action.js';
import { startExport } from './support/export.js';
import { run as exec, stopAfterEach, tool } from './support/processes.js';

/**
 * A runner whose clock is 20 minutes ahead (libfaketime, in a process of its own) and a
 * presigned link valid for 10 minutes by the store's clock: the store, which judges
 * expiry by its own clock, serves it, so the action must try it.
 */

const ARCH = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
const FAKETIME = tool(`/usr/lib/${ARCH}/faketime/libfaketime.so.1`, 'libfaketime');

let site: ReferenceSite;
beforeAll(async () => {
  site = await referenceSite('tar.gz', { padBytes: 64 * 1024 });
});

const peers = stopAfterEach();

describe.skipIf(!FAKETIME.available)('a runner clock 20 minutes ahead of the store’s', () => {
  it('the download of a link valid for 10 more minutes completes', async () => {
    const { api } = await startExport(site.archive, peers);
    const faked = {
      LD_PRELOAD: `/usr/lib/${ARCH}/faketime/libfaketime.so.1`,
      FAKETIME: '+1200',
      // Timers run on the monotonic clock: leave it alone so waits stay real.
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
    // The faked clock really reaches Node: by it, the link has expired before the run starts.
    const { stdout } = await exec(process.execPath, ['-e', 'console.log(Date.now())'], {
      env: { ...process.env, ...faked },
    });
    expect(Number(stdout) - Date.now()).toBeGreaterThan(19 * 60_000);
    const run = await spawnAction(
      { domain: 'docs.example.com', path: 'site', 'base-url': api.baseUrl },
      { ...faked, RUNNER_DEBUG: '1' },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(site.digest);
    expect(run.outputs.sha256).toBe(site.sha256);
    expect(run.stdout).not.toMatch(/expired/);
  });
});
