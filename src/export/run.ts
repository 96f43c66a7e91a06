import fs, { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import type { AdminApi } from '../api/client.js';
import { ApiError, withAdvice } from '../api/errors.js';
import { ChangeReview, removeStaleReport } from '../changes/review.js';
import type { Clock, Random } from '../clock.js';
import type { ExportConfig } from '../config.js';
import { deliverBundle, type Delivered } from '../deliver/deliver.js';
import type { BundleSource } from '../deliver/download.js';
import { renderHelmValues } from '../deliver/helm.js';
import { EXTENSION } from '../deliver/archive/format.js';
import type { SiteContents } from '../deliver/archive/listing.js';
import {
  recoverInterruptedRuns,
  removeStaleTemporaryFiles,
  writeFileAtomic,
} from '../deliver/place.js';
import {
  LOCK_WAIT,
  lockFileBeside,
  lockPath,
  type LockWait,
  type PathLock,
} from '../deliver/path-lock.js';
import {
  archiveManifestName,
  checkArchivePlace,
  checkSitePlace,
  inspectArchiveTarget,
  inspectTarget,
  optIn,
  protectedFileReason,
  realPathOfPlanned,
  TargetRefusal,
  type TargetRules,
  type TargetState,
} from '../deliver/target.js';
import { contains } from '../deliver/protected.js';
import { formatBytes } from '../duration.js';
import {
  abortReason,
  ActionError,
  asLocalFileError,
  errorMessage,
  InputError,
  JobFailedError,
  throwIfAborted,
  TimeoutError,
  withSentence,
} from '../errors.js';
import { withoutQuery } from '../net.js';
import { linkParts } from '../redact.js';
import { describeTimeout, type ExportRecord, type Reporter, setting } from '../report.js';
import { obtainBundleLink, refreshBundleLink } from './bundle.js';
import { describeOtherJob, waitForExport, withWayBackToJob } from './wait.js';

/** Uploads files under `root` as a workflow artifact; returns its id. */
export type ArtifactUploader = (
  name: string,
  root: string,
  files: string[],
) => Promise<{ id?: number | string }>;

export interface ExportDeps {
  api: AdminApi;
  reporter: Reporter;
  clock: Clock;
  random: Random;
  dispatcher: Dispatcher;
  /** Clock time at which the run's timeout passes. */
  deadline: number;
  /** Directory for the temporary archive (RUNNER_TEMP in a workflow). */
  tempDir: string;
  /** The step's id in a workflow: names the report files another step of the job may share. */
  stepId?: string;
  idleTimeoutMs: number;
  signal?: AbortSignal;
  /** Filled in as the run goes, so a summary can be written even after a failure. */
  record: ExportRecord;
  uploadArtifact?: ArtifactUploader;
  /** How long a run waits for another that writes the same `path`; LOCK_WAIT by default. */
  lockWait?: LockWait;
}

/** start → poll → bundle → download/extract → helm values → artifact. */
export async function runExport(config: ExportConfig, deps: ExportDeps): Promise<ExportRecord> {
  try {
    return await exportSteps(config, deps);
  } catch (err) {
    // What fails once the swap is done fails the step, but path holds the new export.
    const placed = deps.record.sitePath ?? deps.record.archivePath;
    if (placed === undefined && deps.record.changes?.kind === 'report') {
      // Its counts are outputs already, and its file stays: what it lists is not live.
      deps.reporter.info(
        'The change report above describes what this export would have changed: it was not put in place.',
      );
    }
    if (placed === undefined || deps.signal?.aborted) throw err;
    const values = deps.record.helmValuesFile;
    throw withSentence(
      err,
      `The new export was already in place in ${placed}, and stays there${values ? `, its Helm values in ${values}` : ''}.`,
    );
  }
}

async function exportSteps(config: ExportConfig, deps: ExportDeps): Promise<ExportRecord> {
  // A wrong path costs milliseconds, not an export: checked before any request.
  const targetRules: TargetRules = {
    ...config.protection,
    overwrite: config.overwrite,
    ...(deps.record.invokedAs ? { invokedAs: deps.record.invokedAs } : {}),
  };
  await checkPlacesBeforeRun(config, targetRules);
  const lock = config.download ? await lockTarget(config, deps) : undefined;
  try {
    return await exportHoldingPath(config, deps, targetRules, lock);
  } finally {
    await lock?.release();
  }
}

/** The export, once no other run writes `path` (`lock`, when the run writes it). */
async function exportHoldingPath(
  config: ExportConfig,
  deps: ExportDeps,
  targetRules: TargetRules,
  lock: PathLock | undefined,
): Promise<ExportRecord> {
  const { api, reporter, record, clock } = deps;
  const signal = deps.signal;
  const withSignal = signal ? { signal } : {};
  const projectScope = config.projectId !== undefined ? { projectId: config.projectId } : {};
  const target = await inspectTargetBeforeRun(config, targetRules, deps);
  const changes = planChangeReview(config, target, deps);
  // A run that makes no report leaves none of an earlier run where a later step reads it.
  if (
    changes === undefined &&
    config.changesFile !== undefined &&
    (await protectedFileReason(config.changesFile, targetRules)) === undefined &&
    (await removeStaleReport(config.changesFile, reporter))
  ) {
    reporter.info(
      `Removed ${config.changesFile}, the change report of an earlier run: this run makes none.`,
    );
  }

  const existing = config.jobId;
  const started = await reporter.group(
    existing !== undefined
      ? `Reusing export job ${existing} of ${config.domain}`
      : `Starting the static export of ${config.domain}`,
    async () => {
      const answer =
        existing !== undefined
          ? await api.getExportJob(existing, config.projectId, signal).catch((err: unknown) => {
              if (err instanceof ApiError && err.status === 404) {
                throw withAdvice(
                  err,
                  `Check \`job-id\` (${existing}): it must name an export job of this organization; leave it empty to start a new export.`,
                );
              }
              throw err;
            })
          : await api.startExport(
              {
                domain: config.domain,
                ...(config.docsVersion !== undefined ? { version: config.docsVersion } : {}),
                ...(config.exportPaths !== undefined ? { paths: config.exportPaths } : {}),
                ...projectScope,
              },
              signal,
            );
      // A reused job is the one the run was given, whatever id the answer names.
      if (existing !== undefined && answer.jobId !== existing) {
        reporter.warning(describeOtherJob(existing, answer.jobId));
      }
      const job = existing !== undefined ? { ...answer, jobId: existing } : answer;
      record.jobId = job.jobId;
      record.status = job.status;
      reporter.setOutput('job-id', job.jobId);
      reporter.info(`Export job ${job.jobId} is ${job.status}.`);
      if (config.projectId !== undefined) reporter.info(describeRoutes(api, config.projectId));
      return job;
    },
  );

  const finished = await reporter.group(`Waiting for export job ${started.jobId}`, () =>
    waitForExport(started, {
      api,
      reporter,
      clock,
      interval: config.pollInterval,
      deadline: deps.deadline,
      onDeadline: () => new TimeoutError(describeTimeout(record, config.timeoutMs)),
      onJob: (job) => {
        record.status = job.status;
      },
      ...projectScope,
      ...withSignal,
    }).catch((err: unknown) => {
      // The service still does not know the job it named when this run created it.
      if (existing === undefined && err instanceof ApiError && err.status === 404) {
        throw withAdvice(
          err,
          `If it shows up later, ${setting('job-id', started.jobId)} picks it up; running again without it starts another export.`,
        );
      }
      throw withWayBackToJob(err, started.jobId, record.status, signal);
    }),
  );
  record.status = finished.status;
  if (finished.pageCount !== undefined) {
    record.pageCount = finished.pageCount;
    reporter.setOutput('page-count', String(finished.pageCount));
  }
  reporter.setOutput('status', finished.status);
  if (finished.status === 'failed') {
    record.error = finished.error;
    throw new JobFailedError(
      `Export job ${started.jobId} failed on the server: ${finished.error ?? 'the API gave no reason'}.`,
    );
  }

  const bundleOptions = {
    api,
    reporter,
    clock,
    random: deps.random,
    deadline: deps.deadline,
    ...projectScope,
    ...withSignal,
  };
  const inline = finished.bundleUrl !== undefined;
  /** Every address the link leads to, hidden from the log when the link is masked. */
  const maskLink = (link: string) => {
    if (!config.maskBundleUrl) return;
    for (const part of linkParts(link, config.baseUrl, config.domain)) reporter.mask(part, 'log');
  };
  const publishLink = (source: BundleSource) => {
    maskLink(source.url);
    record.bundleUrl = source.url;
    record.bundleUrlMasked = config.maskBundleUrl;
    reporter.setOutput('bundle-url', source.url);
    if (source.expiresAt) {
      record.expiresAt = source.expiresAt;
      reporter.setOutput('expires-at', source.expiresAt.toISOString());
    }
    if (source.sizeBytes !== undefined) {
      record.sizeBytes = source.sizeBytes;
      reporter.setOutput('size-bytes', String(source.sizeBytes));
    }
  };
  let source = await reporter.group('Getting the bundle link', async () => {
    let link = await obtainBundleLink(started.jobId, finished, bundleOptions);
    // Published without a download, the link must still work when someone uses it.
    if (!config.download && link.expiresAt && !api.serverTime.mayBeBefore(link.expiresAt)) {
      reporter.info(
        `The bundle link expired at ${link.expiresAt.toISOString()} already: requesting a fresh one.`,
      );
      link = await refreshBundleLink(started.jobId, inline, bundleOptions);
      if (link.expiresAt && !api.serverTime.mayBeBefore(link.expiresAt)) {
        const skew = api.serverTime.describeSkew('the API');
        throw new ActionError(
          `The API hands out bundle links that have already expired (expiresAt ${link.expiresAt.toISOString()}${skew ? `; ${skew}` : ''}): nothing usable to publish. Check the service's clock, or run with \`download: true\` to fetch the archive at once.`,
        );
      }
    }
    publishLink(link);
    const address = config.maskBundleUrl ? 'masked (`mask-bundle-url`)' : withoutQuery(link.url);
    reporter.info(
      `Bundle link ${address}${link.sizeBytes !== undefined ? `, ${formatBytes(link.sizeBytes)}` : ''}${link.expiresAt ? `, valid until ${link.expiresAt.toISOString()}` : ''}.`,
    );
    return link;
  });

  if (config.deploymentType !== 'cloud' && !(config.download && config.extract)) {
    reporter.notice(
      `${setting('deployment-type', config.deploymentType)}, but the site is not extracted here, so it was not checked for references outside itself.`,
    );
  }
  /** What the download put in path: from then on, path holds this run's export. */
  let delivered: Delivered | undefined;
  if (config.download) {
    const checks =
      config.extract && (config.deploymentType !== 'cloud' || config.brokenLinks !== 'off');
    // Loaded while the archive downloads: compiling the check's code (about 15 ms) would
    // otherwise come after the extraction, and hold up the step's end by as much.
    const readinessModule = checks ? import('../airgap/check.js') : undefined;
    readinessModule?.catch(() => undefined); // a failure is met where it is awaited
    delivered = await reporter.group(
      `Downloading the bundle${config.extract ? ` and extracting it into ${config.path}` : ` into ${config.path}`}`,
      () =>
        deliverBundle({
          source,
          refresh: async (reason) => {
            reporter.debug(`Refreshing the bundle link: ${reason}`);
            source = await refreshBundleLink(started.jobId, inline, bundleOptions);
            publishLink(source);
            return source;
          },
          onRedirect: maskLink,
          // Known before the extraction ends and the guards run: a failure still reports it.
          onDownloaded: (download) => {
            record.sha256 = download.sha256;
            record.etagVerified = download.etagVerified;
            record.sizeBytes = download.size;
            reporter.setOutput('sha256', download.sha256);
            reporter.setOutput('size-bytes', String(download.size));
          },
          target: config.path,
          extract: config.extract,
          archiveName: config.domain,
          limits: config.limits,
          targetRules,
          ...(lock ? { confirmLock: () => lock.confirm() } : {}),
          targetGiven: config.pathGiven,
          export: {
            domain: config.domain,
            jobId: finished.jobId,
            ...(finished.pageCount !== undefined ? { pageCount: finished.pageCount } : {}),
          },
          tempDir: deps.tempDir,
          dispatcher: deps.dispatcher,
          clock,
          random: deps.random,
          deadline: deps.deadline,
          ...(changes
            ? {
                ...(changes.reports ? { describePages: changes.describePages } : {}),
                review: changes.review,
              }
            : {}),
          idleTimeoutMs: deps.idleTimeoutMs,
          reporter,
          ...withSignal,
          ...(readinessModule
            ? {
                inspect: async (stagingDir: string, contents: SiteContents) => {
                  const { checkReadiness } = await readinessModule;
                  record.checking = true;
                  await checkReadiness(stagingDir, config, reporter, record, {
                    tempDir: deps.tempDir,
                    ...(deps.stepId !== undefined ? { stepId: deps.stepId } : {}),
                    contents,
                    ...withSignal,
                  });
                },
              }
            : {}),
        }),
    );
    // The new export is in place and the temporary files are gone: the rest is not in path.
    // A lock file that cannot be removed fails nothing: the next run takes it over.
    await lock?.release().catch((err: unknown) => {
      reporter.warning(
        `Could not remove the lock file ${lock.file} (${errorMessage(err)}): the export is in place, and the next run into \`path\` takes the lock over once this run has ended.`,
      );
    });
    record.format = delivered.format;
    reporter.setOutput('path', delivered.directory);
    if (delivered.archivePath) {
      record.archivePath = delivered.archivePath;
      reporter.setOutput('archive-path', delivered.archivePath);
      reporter.info(`Archive saved as ${delivered.archivePath}.`);
    } else {
      record.sitePath = delivered.directory;
      record.files = delivered.site?.files;
      record.extractedBytes = delivered.site?.bytes;
      reportPlacement(delivered.directory, delivered.replaced, reporter, record);
    }
    record.manifestPath = delivered.manifestPath;
  }

  // Before the upload, which may be cancelled: the values match what path now holds.
  if (config.helmValuesFile !== undefined) {
    await writeHelmValues(config.helmValuesFile, config, started.jobId, source, deps);
  }
  if (delivered !== undefined && config.artifactName !== undefined) {
    await uploadExport(config.artifactName, delivered, deps);
  }
  return record;
}

/** The export in `delivered`, uploaded as the workflow artifact `name`; a signal ends the wait. */
async function uploadExport(name: string, delivered: Delivered, deps: ExportDeps): Promise<void> {
  const { reporter, record, signal } = deps;
  await reporter.group(`Uploading the artifact ${name}`, async () => {
    if (!deps.uploadArtifact) {
      reporter.warning(
        '`artifact-name` is set, but workflow artifacts can only be uploaded inside GitHub Actions: skipped.',
      );
      return;
    }
    const files = delivered.archivePath
      ? [delivered.archivePath]
      : await listFiles(delivered.directory);
    let uploaded: { id?: number | string };
    try {
      uploaded = await untilAborted(deps.uploadArtifact(name, delivered.directory, files), signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      const cause = errorMessage(err).replace(/\.$/, '');
      const duplicate = /already exists|\(409\)/i.test(cause)
        ? ` An artifact named ${name} already exists in this workflow run: give each job its own artifact-name (e.g. include the matrix values).`
        : '';
      throw new ActionError(
        `Uploading the export as workflow artifact ${name} failed: ${cause}.${duplicate}`,
      );
    }
    if (uploaded.id !== undefined) {
      record.artifactId = String(uploaded.id);
      reporter.setOutput('artifact-id', String(uploaded.id));
      reporter.info(`Uploaded ${files.length} file(s) as artifact ${name} (id ${uploaded.id}).`);
    }
  });
}

/** The Helm values of the link to `jobId`'s bundle, written to `file`. */
async function writeHelmValues(
  file: string,
  config: ExportConfig,
  jobId: string,
  source: BundleSource,
  { reporter, record }: Pick<ExportDeps, 'reporter' | 'record'>,
): Promise<void> {
  const version = config.releaseVersion ?? jobId;
  await writeFileAtomic(
    file,
    renderHelmValues({
      bundleUrl: source.url,
      version,
      jobId,
      domain: config.domain,
      ...(source.expiresAt ? { expiresAt: source.expiresAt } : {}),
    }),
    0o600,
  );
  record.helmValuesFile = file;
  reporter.setOutput('helm-values-file', file);
  reporter.info(`Wrote Helm values to ${file} (staticExport.version ${version}).`);
}

/**
 * Before any request, and before anything is written: where `path` is (what it holds is
 * looked at once the lock is held), and the files the run writes at its end. A refusal is
 * an input error: nothing has been sent.
 */
async function checkPlacesBeforeRun(config: ExportConfig, rules: TargetRules): Promise<void> {
  if (config.download) {
    await asInputError(async () => {
      if (config.extract) await checkSitePlace(config.path, rules, config.pathGiven);
      else await checkArchivePlace(config.path, rules, config.pathGiven);
    });
  }
  // Files the run writes at its end are checked now, before any request.
  const files = [
    ['helm-values-file', config.helmValuesFile, 'static-export-values.yaml'],
    // Only a run that can make a report writes it.
    [
      'changes-file',
      config.download && config.extract && config.compareWith.kind !== 'none'
        ? config.changesFile
        : undefined,
      'reports/changes.json',
    ],
  ] as const;
  for (const [input, file, example] of files) {
    if (file === undefined) continue;
    // Not even with overwrite: the machine's files and the checkout's history.
    const forbidden = await protectedFileReason(file, rules);
    if (forbidden) {
      throw new InputError([
        {
          input,
          message: `${file}: ${forbidden}; choose a file in the workspace, such as ${example}`,
        },
      ]);
    }
    // The inputs were compared as written; a link on the way can still lead into path.
    if (
      config.download &&
      config.extract &&
      contains(await realPathOfPlanned(config.path), await realPathOfPlanned(file), rules.platform)
    ) {
      throw new InputError([
        {
          input,
          message: `${file} leads, through a link, inside \`path\` (${config.path}), which the export replaces as a whole: choose a file outside it, in a directory that is not a link into \`path\``,
        },
      ]);
    }
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat && !stat.isFile()) {
      throw new InputError([
        {
          input,
          message: `${file} exists and is not a regular file: name a file to write, such as ${example}`,
        },
      ]);
    }
    // A file of the user's (a chart's own values.yaml) is never written over unasked.
    if (stat && stat.size > 0 && !rules.overwrite && !(await writtenByThisAction(input, file))) {
      throw new InputError([
        {
          input,
          message: `${file} exists and was not written by this action: name a new file, such as ${example}, or ${optIn(rules)} to replace it`,
        },
      ]);
    }
  }
}

/**
 * Waits until no other run writes `path`, and makes the others wait: the lock is taken
 * beside what the run replaces, the site (beside `path`) or the archive (in `path`).
 */
async function lockTarget(config: ExportConfig, deps: ExportDeps): Promise<PathLock> {
  const file = lockFileBeside(config.extract ? config.path : path.join(config.path, config.domain));
  const dir = path.dirname(file);
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    throw asLocalFileError(err, dir, 'create') ?? err;
  }
  const wait = deps.lockWait ?? LOCK_WAIT;
  return lockPath(file, {
    wait,
    // The run's deadline on the lock's own clock, which another host can judge it by.
    until: wait.clock.now() + Math.max(0, deps.deadline - deps.clock.now()),
    reporter: deps.reporter,
    shown: config.path,
    onWaiting: (holder) => {
      deps.record.pathHeldBy = holder;
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

/**
 * With the lock held: whatever killed runs left behind is cleaned up, and what `path`
 * holds is checked. A refusal is an input error: nothing has been sent.
 */
async function inspectTargetBeforeRun(
  config: ExportConfig,
  rules: TargetRules,
  deps: Pick<ExportDeps, 'reporter' | 'tempDir' | 'signal'>,
): Promise<TargetState | undefined> {
  if (!config.download) return undefined;
  // The site is staged beside path; an archive kept as a file, and its manifest, inside it.
  const archives = Object.values(EXTENSION).map((ext) => `${config.domain}${ext}`);
  const recovery = config.extract
    ? await recoverInterruptedRuns(path.dirname(config.path), [path.basename(config.path)])
    : await recoverInterruptedRuns(
        config.path,
        archives.flatMap((name) => [name, archiveManifestName(name)]),
      );
  for (const line of recovery.done) deps.reporter.info(line);
  for (const line of recovery.warnings) deps.reporter.warning(line);
  await removeStaleTemporaryFiles(deps.tempDir);
  if (!config.extract) {
    await asInputError(() =>
      inspectArchiveTarget(config.path, archives, rules, config.pathGiven, deps.signal),
    );
    return undefined;
  }
  const state = await asInputError(() => inspectTarget(config.path, rules, config.pathGiven));
  if (state.kind === 'foreign') {
    deps.reporter.warning(
      `${setting('overwrite', 'true')}: \`path\` (${config.path}) ${state.description}; it will be replaced by the export.`,
    );
  }
  return state;
}

/** What `check` returns; a refusal of `path` it throws becomes the input error it is. */
async function asInputError<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (!(err instanceof TargetRefusal)) throw err;
    throw new InputError([{ input: 'path', message: err.message }]);
  }
}

/** What this action's own files start with: its Helm values, its change report. */
const OWN_FILE_START = {
  'helm-values-file': /^# Static export \S+ of \S+, written by static-export-action\./,
  'changes-file': /^\s*\{\s*"format"\s*:\s*"static-export-changes"/,
} as const;

/** Whether `file` starts as the action writes the file of `input`. */
async function writtenByThisAction(
  input: keyof typeof OWN_FILE_START,
  file: string,
): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return OWN_FILE_START[input].test(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

/** The change report, when the site is extracted here and compare-with is not none. */
function planChangeReview(
  config: ExportConfig,
  target: TargetState | undefined,
  deps: ExportDeps,
): ChangeReview | undefined {
  const explicit = config.compareWith.kind === 'file' || config.compareWith.kind === 'url';
  // The guard is a safety net: a run that cannot apply it says so rather than pass quietly.
  const unguarded = (why: string) => {
    if (config.maxRemovedPages !== undefined)
      deps.reporter.warning(`\`max-removed-pages\` was not checked: ${why}.`);
  };
  if (!(config.download && config.extract)) {
    if (explicit) {
      deps.reporter.notice(
        '`compare-with` is set, but the site is not extracted here, so there is no change report.',
      );
    }
    unguarded('the site is not extracted here, so no pages are counted');
    return undefined;
  }
  // With compare-with: none there is no report, but the guard still counts removed pages
  // against the earlier export in path (ChangeReview, with nothing to fingerprint).
  if (config.compareWith.kind === 'none' && config.maxRemovedPages === undefined) return undefined;
  return new ChangeReview(config, target, {
    reporter: deps.reporter,
    record: deps.record,
    clock: deps.clock,
    dispatcher: deps.dispatcher,
    tempDir: deps.tempDir,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

/** Says what the export replaced; a directory this action did not write, loudly. */
function reportPlacement(
  directory: string,
  replaced: TargetState | undefined,
  reporter: Reporter,
  record: ExportRecord,
): void {
  if (replaced?.kind === 'foreign') {
    record.replacedForeign = replaced.description;
    reporter.warning(
      `Replaced ${directory}, which this action did not write (it ${replaced.description}), because \`overwrite\` is true.`,
    );
  } else if (replaced?.kind === 'export') {
    record.replacedExport = replaced.manifest.jobId;
    reporter.info(
      `Replaced the earlier export in ${directory} (job ${replaced.manifest.jobId}, exported ${replaced.manifest.exportedAt}) with the new one.`,
    );
  } else {
    reporter.info(`Put the exported site in ${directory}.`);
  }
}

/** Which export routes answered, for a run given project-id. */
function describeRoutes(api: AdminApi, projectId: string): string {
  return api.exportRoutes === 'project'
    ? `The published export routes (/v1/static-export/jobs) do not exist on this service; the project-scoped ones (/v1/static-export/${projectId}/jobs) answered and are used.`
    : '`project-id` is set, but the published export routes (/v1/static-export/jobs) answered: they are used, and `project-id` is not needed for export.';
}

/**
 * `work`, or the signal's reason as soon as it fires: the upload takes no signal, and a
 * cancelled step must not wait minutes for it to end before saying the site is in place.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  throwIfAborted(signal);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
