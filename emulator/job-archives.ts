import type { ArchiveBuilder } from './archive.js';
import { bufferObject, describeFile } from './archive.js';
import type { ArchiveObject, EmulatorClock, EmulatorOptions, ExportJobInfo } from './types.js';

export interface JobArchivesConfig {
  builder: ArchiveBuilder;
  clock: EmulatorClock;
  archiveFor?: EmulatorOptions['archiveFor'];
  sizeBytes: number;
  fileCount: number;
}

/** The archive of each export job (and revision): the archiveFor hook's bytes or a generated site. */
export class JobArchives {
  private readonly objects = new Map<string, Promise<ArchiveObject>>();

  constructor(private readonly config: JobArchivesConfig) {}

  get(job: ExportJobInfo): Promise<ArchiveObject> {
    const key = `${job.jobId}#${job.revision}`;
    let object = this.objects.get(key);
    if (object === undefined) {
      object = this.load(job);
      object.catch(() => this.objects.delete(key));
      this.objects.set(key, object);
    }
    return object;
  }

  /** Starts building in the background so the archive is ready when the job completes. */
  prepare(job: ExportJobInfo): void {
    this.get(job).catch(() => {});
  }

  private async load(job: ExportJobInfo): Promise<ArchiveObject> {
    const readyAt = new Date(this.config.clock.now());
    const override = await this.config.archiveFor?.({ ...job });
    const object =
      override === undefined || override === null
        ? await this.config.builder.build({
            domain: job.domain,
            pageCount: job.totalPages,
            revision: job.revision,
            format: job.format,
            sizeBytes: this.config.sizeBytes,
            fileCount: this.config.fileCount,
          })
        : Buffer.isBuffer(override)
          ? bufferObject(override)
          : await describeFile(override);
    // Last-Modified is when this revision of the object appeared in the store.
    return { ...object, lastModified: readyAt };
  }
}
