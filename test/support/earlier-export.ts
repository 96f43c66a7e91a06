import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { buildManifest, MANIFEST_NAME, serializeManifest } from '../../src/deliver/manifest.js';
import { identityOf } from '../../src/deliver/protected.js';
import { siteContents } from './site-contents.js';
import { writeTree } from './files.js';

/**
 * Writes an earlier export of this action into `dir`: the files and the manifest that
 * lists them, as a previous run would have left it. `path` may replace such a directory.
 */
export async function writeEarlierExport(
  dir: string,
  files: Record<string, string | Buffer>,
  jobId = 'se_0000000000000001',
): Promise<void> {
  await writeTree(dir, files);
  const manifest = buildManifest({
    // Written in dir, as the action writes it in the directory that becomes path.
    directory: await identityOf(dir),
    domain: 'docs.example.com',
    jobId,
    exportedAt: new Date('2026-11-01T00:00:00Z'),
    archive: { format: 'tar.gz', sha256: '0'.repeat(64), sizeBytes: 1 },
    contents: siteContents(
      Object.entries(files).map(([name, content]) => ({
        path: name,
        size: Buffer.byteLength(content),
        sha256: createHash('sha256').update(content).digest('hex'),
        executable: false,
      })),
    ),
  });
  await fs.writeFile(path.join(dir, MANIFEST_NAME), serializeManifest(manifest));
}
