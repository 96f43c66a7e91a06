import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentJobs } from './agent-jobs.js';
import type { AgentJobRecord } from './agent-jobs.js';
import { createApiServer } from './api.js';
import { ArchiveBuilder } from './archive.js';
import { createClock, HOUR_MS } from './clock.js';
import { controlEndpoints } from './control.js';
import type { ServerContext } from './exchange.js';
import { ExportJobs, exportJobView, jobInfo } from './export-jobs.js';
import type { ExportJobRecord } from './export-jobs.js';
import { FaultQueue } from './faults.js';
import { JobArchives } from './job-archives.js';
import { resolveOptions } from './options.js';
import { RollingWindowLimit } from './rate-limit.js';
import { QuerySigner } from './sigv4.js';
import { createStoreServer } from './store.js';
import type { Emulator, EmulatorOptions, RecordedRequest } from './types.js';

export type * from './types.js';
export { DEFAULT_KEYS } from './options.js';

/** Starts the admin API and the presigned object store on loopback ports. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const opts = resolveOptions(options);
  const clock = createClock(opts.timeScale);
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const sleeps = new Sleeps();
  const ctx: ServerContext = {
    clock,
    faults,
    requests,
    log: opts.log,
    scrub: keyScrubber(opts.keys),
    sleep: (ms) => sleeps.sleep(ms),
  };
  const exportJobs = new ExportJobs(opts);
  const agentJobs = new AgentJobs({
    durationMs: opts.agentDurationMs,
    failureReason: opts.agentFailureReason,
  });
  const builder = new ArchiveBuilder(opts.cacheDir);
  const archives = new JobArchives({ ...opts, builder, clock, sizeBytes: opts.archiveSizeBytes });
  const signer = new QuerySigner();

  const exportSnapshot = (job: ExportJobRecord) => ({
    ...jobInfo(job),
    view: exportJobView(job, exportJobs.state(job, clock.now()), opts.variant),
  });
  const agentSnapshot = (job: AgentJobRecord) => ({
    ...agentJobs.view(job, clock.now()),
    projectId: job.projectId,
    prompts: job.runs.map((run) => run.prompt),
  });
  const archiveAgentJob = (projectId: string, id: string) => {
    const job = agentJobs.get(id);
    if (job === undefined || job.projectId !== projectId) return undefined;
    agentJobs.archive(job, clock.now());
    return agentJobs.view(job, clock.now());
  };

  const storeServer = createStoreServer(ctx, { jobs: exportJobs, archives, signer });
  const storeOrigin = origin(opts.host, await listen(storeServer, opts.storePort, opts.host));
  const apiServer = createApiServer(ctx, {
    options: opts,
    exportJobs,
    agentJobs,
    archives,
    signer,
    storeOrigin,
    exportStarts: new RollingWindowLimit(opts.exportStartLimit, HOUR_MS),
    agentUses: new RollingWindowLimit(opts.agentRateLimit, HOUR_MS),
    control: controlEndpoints({ faults, requests, clock, archiveAgentJob }),
  });
  let apiPort: number;
  try {
    apiPort = await listen(apiServer, opts.port, opts.host);
  } catch (error) {
    await close(storeServer);
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    baseUrl: origin(opts.host, apiPort),
    storeUrl: storeOrigin,
    keys: { ...opts.keys },
    faults,
    requests,
    clock,
    exportJobs: {
      get: (jobId) => {
        const job = exportJobs.get(jobId);
        return job && exportSnapshot(job);
      },
      list: () => exportJobs.list().map(exportSnapshot),
    },
    agentJobs: {
      get: (id) => {
        const job = agentJobs.get(id);
        return job && agentSnapshot(job);
      },
      list: () => agentJobs.list().map(agentSnapshot),
    },
    archiveAgentJob,
    stop: () => {
      stopping ??= (async () => {
        sleeps.cancelAll();
        await Promise.all([close(apiServer), close(storeServer), builder.close()]);
      })();
      return stopping;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes the server and every open socket, stalled downloads included. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const origin = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Keys never reach a log line or a recorded path, whatever a client puts where. */
function keyScrubber(keys: { write: string; read: string }): (text: string) => string {
  return (text) =>
    text
      .split(keys.write)
      .join('[redacted]')
      .split(keys.read)
      .join('[redacted]')
      .replace(/mint_[A-Za-z0-9_-]+/g, 'mint_[redacted]');
}

/** Real-time sleeps for latency faults, all released when the emulator stops. */
class Sleeps {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.set(timer, resolve);
    });
  }

  cancelAll(): void {
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve();
    }
    this.pending.clear();
  }
}
