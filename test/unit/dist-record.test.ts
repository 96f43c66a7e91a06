import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { staleness, writeRecord } from '../../scripts/dist-record.js';

/** npm test rebuilds dist/ when this says it is stale, and the smoke tests refuse to run. */

let root: string;
const write = async (file: string, content: string) => {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await fs.writeFile(path.join(root, file), content);
};

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-dist-record-'));
  await write('package.json', JSON.stringify({ scripts: { build: 'ncc build', test: 'vitest' } }));
  await write('package-lock.json', '{}');
  await write('tsconfig.json', '{}');
  await write('tsconfig.build.json', '{}');
  await write('src/main.ts', 'export const answer = 42;\n');
  await write('dist/index.js', 'console.log(42);\n');
});

describe('the build record of dist/', () => {
  it('is fresh right after a build', async () => {
    writeRecord(root);
    expect(staleness(root)).toBeUndefined();
  });

  it('is stale without a record', () => {
    expect(staleness(root)).toMatch(/build-record\.json is missing/);
  });

  it('is stale once a source file changes, appears or goes', async () => {
    writeRecord(root);
    await write('src/main.ts', 'export const answer = 43;\n');
    expect(staleness(root)).toMatch(/src\/.* changed since dist\/ was built/);
    writeRecord(root);
    await write('src/extra.ts', 'export {};\n');
    expect(staleness(root)).toMatch(/changed since dist\/ was built/);
    writeRecord(root);
    await fs.rm(path.join(root, 'src', 'extra.ts'));
    expect(staleness(root)).toMatch(/changed since dist\/ was built/);
  });

  it('is stale when the lockfile or the build command changes, not another script', async () => {
    writeRecord(root);
    await write('package.json', JSON.stringify({ scripts: { build: 'ncc build', test: 'x' } }));
    expect(staleness(root)).toBeUndefined();
    await write('package.json', JSON.stringify({ scripts: { build: 'ncc build -m' } }));
    expect(staleness(root)).toMatch(/build command changed/);
    writeRecord(root);
    await write('package-lock.json', '{"lockfileVersion":3}');
    expect(staleness(root)).toMatch(/package-lock\.json/);
  });

  it('is stale when dist/ itself was edited after the build', async () => {
    writeRecord(root);
    await write('dist/index.js', 'console.log(41);\n');
    expect(staleness(root)).toMatch(/dist\/ was changed after it was built/);
  });
});
