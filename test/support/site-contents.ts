import type {
  SiteContents,
  WrittenFile,
  WrittenSymlink,
} from '../../src/deliver/archive/listing.js';
import type { ExportManifest, Manifest } from '../../src/deliver/manifest.js';

/** The contents of a site an extraction would list, from plain lists (sorted by the caller). */
export function siteContents(files: WrittenFile[], symlinks: WrittenSymlink[] = []): SiteContents {
  return {
    files,
    filePaths: files.map((file) => file.path),
    fileCount: files.length,
    fileBytes: files.reduce((sum, file) => sum + file.size, 0),
    symlinks,
  };
}

/** A manifest as it is written: its lists read out into arrays. */
export function listed(manifest: ExportManifest): Manifest {
  return { ...manifest, files: [...manifest.files], symlinks: [...manifest.symlinks] };
}
