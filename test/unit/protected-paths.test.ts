import { describe, expect, it } from 'vitest';
import {
  contains,
  type ProtectedContext,
  protectedReason,
  protectedReasonByIdentity,
} from '../../src/deliver/protected.js';

/**
 * The directories `path` may never replace, judged on paths alone: no test here touches
 * the filesystem, so the real system directories are only ever named, never reached.
 */

const linux: ProtectedContext = {
  platform: 'linux',
  workspace: '/home/runner/work/docs/docs',
  home: '/home/runner',
  runnerDirs: ['/home/runner/work/_temp', '/opt/hostedtoolcache', '/tmp'],
};
const macos: ProtectedContext = {
  platform: 'darwin',
  workspace: '/Users/runner/work/docs/docs',
  home: '/Users/runner',
  runnerDirs: ['/Users/runner/work/_temp', '/Users/runner/hostedtoolcache'],
};
const windows: ProtectedContext = {
  platform: 'win32',
  workspace: 'D:\\a\\docs\\docs',
  home: 'C:\\Users\\runneradmin',
  runnerDirs: ['D:\\a\\_temp', 'C:\\hostedtoolcache\\windows'],
};

describe('protectedReason', () => {
  it.each([
    ['/', /root of a filesystem/],
    ['/home/runner/work/docs/docs', /workspace itself/],
    ['/home/runner/work/docs/docs/', /workspace itself/],
    ['/home/runner/work/docs', /contains the workspace/],
    ['/home/runner/work', /contains the workspace/],
    ['/home/runner/work/docs/docs/.git', /\.git directory/],
    ['/home/runner/work/docs/docs/.git/objects', /\.git directory/],
    ['/home/runner/work/_temp', /is the temporary or tool-cache directory/],
    ['/opt/hostedtoolcache', /is the temporary or tool-cache directory/],
    ['/tmp', /is the temporary or tool-cache directory \/tmp/],
    ['/etc', /\/etc, a system directory/],
    ['/etc/nginx/conf.d', /inside \/etc, a system directory/],
    ['/usr/bin', /\/usr\/bin, a system directory/],
    ['/usr/lib/x86_64-linux-gnu', /\/usr\/lib, a system directory/],
    ['/lib64', /\/lib64/],
    ['/boot/efi', /\/boot/],
    ['/dev/shm', /inside \/dev, a system directory/],
    ['/dev/sda1', /inside \/dev, a system directory/],
    ['/proc/self', /\/proc/],
    ['/sys/kernel', /\/sys/],
    ['/usr', /is \/usr, a system directory/],
    ['/var', /is \/var, a system directory/],
    ['/opt', /contains the temporary or tool-cache directory/],
    ['/srv', /is \/srv, a system directory/],
    ['/home', /contains the workspace/],
    ['/root', /is \/root/],
  ])('refuses %s on Linux', (target, why) => {
    expect(protectedReason(target, linux)).toMatch(why);
  });

  it.each([
    '/home/runner/work/docs/docs/site',
    '/home/runner/work/docs/docs/out/site',
    '/home/runner/work/_temp/site',
    '/home/runner/site',
    '/tmp/site',
    '/var/www/html',
    '/usr/share/nginx/html',
    '/srv/docs',
    '/opt/docs',
    '/dev/shm/site',
    '/home/runner/work/docs/docs/.github-pages', // not .git
  ])('allows %s on Linux (what it holds is judged next)', (target) => {
    expect(protectedReason(target, linux)).toBeUndefined();
  });

  it('judges macOS names without regard to case', () => {
    expect(protectedReason('/users/RUNNER/work/docs/DOCS', macos)).toMatch(/workspace itself/);
    expect(protectedReason('/system/library', macos)).toMatch(/\/System, a system directory/);
    expect(protectedReason('/private/etc/hosts', macos)).toMatch(/\/private\/etc/);
    expect(protectedReason('/Volumes', macos)).toMatch(/is \/Volumes/);
    expect(protectedReason('/Users/runner/work/docs/docs/site', macos)).toBeUndefined();
  });

  it('knows Windows drives, system folders and case-insensitive names', () => {
    expect(protectedReason('C:\\', windows)).toMatch(/root of a filesystem/);
    expect(protectedReason('d:\\A\\DOCS\\docs', windows)).toMatch(/workspace itself/);
    expect(protectedReason('C:\\Windows\\System32', windows)).toMatch(
      /Windows, a system directory/,
    );
    expect(protectedReason('E:\\Program Files\\x', windows)).toMatch(/Program Files/);
    expect(protectedReason('C:\\Users\\runneradmin', windows)).toMatch(/home directory/);
    expect(protectedReason('C:\\Users', windows)).toMatch(/contains the home directory/);
    expect(protectedReason('D:\\a\\docs\\docs\\site', windows)).toBeUndefined();
  });
});

describe('contains', () => {
  it('compares whole path segments, not string prefixes', () => {
    expect(contains('/srv/docs', '/srv/docs/site', 'linux')).toBe(true);
    expect(contains('/srv/docs', '/srv/docs-old', 'linux')).toBe(false);
    expect(contains('/srv/docs', '/srv/docs/../other', 'linux')).toBe(false);
    expect(contains('/srv/docs', '/srv/docs/..files', 'linux')).toBe(true);
    expect(contains('/srv/Docs', '/srv/docs', 'linux')).toBe(false);
    expect(contains('/srv/Docs', '/srv/docs', 'darwin')).toBe(true);
  });
});

describe('protectedReasonByIdentity (a protected directory reached by another path)', () => {
  const id = (dev: number, ino: number) => ({ dev: BigInt(dev), ino: BigInt(ino) });
  /** A workspace (inode 4) three levels below the root of device 1, and a missing home. */
  const lineages = [
    { name: 'the workspace', identities: [id(1, 4), id(1, 3), id(1, 2), id(1, 1)] },
    { name: 'the home directory', identities: [undefined, id(1, 1)] },
  ];

  it('refuses the workspace itself and each of its parents, by device and inode', () => {
    expect(protectedReasonByIdentity(id(1, 4), lineages)).toBe(
      'it is the workspace, reached by another path (the same device and inode: a bind mount or another mount of it)',
    );
    expect(protectedReasonByIdentity(id(1, 2), lineages)).toMatch(/^it contains the workspace, /);
  });

  it('accepts any other directory, the same inode on another device included', () => {
    expect(protectedReasonByIdentity(id(1, 5), lineages)).toBeUndefined();
    expect(protectedReasonByIdentity(id(2, 4), lineages)).toBeUndefined();
  });

  it('tells nothing from a filesystem without inode numbers', () => {
    expect(protectedReasonByIdentity(id(1, 0), [{ name: 'x', identities: [id(1, 0)] }])).toBe(
      undefined,
    );
  });
});
