import { type BundleAnswer, type ExportApi, startExportApi } from './api.js';
import type { Cleanup } from './processes.js';
import { type ObjectStore, startObjectStore } from './s3.js';

/** Where the archive lies in the store. */
export const ARCHIVE_KEY = 'exports/se_peer/site.tar.gz';

export interface ExportOptions {
  /** Loopback address of the store and the API (127.0.0.1 or ::1). */
  host?: string;
  /** The address the links name, when a proxy or gateway stands in front of the store. */
  linkEndpoint?: (store: ObjectStore) => string;
  /** Answers the bundle call instead of a 10-minute link to the archive. */
  answer?: (store: ObjectStore) => Promise<BundleAnswer>;
  /** Requests the API leaves unanswered first. */
  hangFirst?: number;
}

/**
 * s3rver holding `archive`, and an export API whose bundle call hands out a presigned
 * link to it (valid 10 minutes): both stopped when the test ends.
 */
export async function startExport(
  archive: Buffer,
  cleanup: Cleanup,
  options: ExportOptions = {},
): Promise<{ store: ObjectStore; api: ExportApi }> {
  const host = options.host ?? '127.0.0.1';
  const store = cleanup.later(await startObjectStore(host));
  await store.put(ARCHIVE_KEY, archive);
  const link = async (): Promise<BundleAnswer> => ({
    bundleUrl: await store.presign(ARCHIVE_KEY, 600, {
      ...(options.linkEndpoint ? { endpoint: options.linkEndpoint(store) } : {}),
    }),
    sizeBytes: archive.length,
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  });
  const api = cleanup.later(
    await startExportApi(options.answer ? () => options.answer!(store) : link, host, {
      hangFirst: options.hangFirst ?? 0,
    }),
  );
  return { store, api };
}
