import { iso } from './clock.js';
import { domainProblem } from './domain.js';
import type { Exchange, ServerContext } from './exchange.js';
import { isObject, readApiJsonBody, sendError, sendJson } from './exchange.js';
import type { ExportJobRecord, ExportStart } from './export-jobs.js';
import { exportJobView, jobInfo } from './export-jobs.js';
import type { ApiDeps, ApiRoute } from './routes.js';
import { knownProject, routePattern, SEGMENT } from './routes.js';
import { objectPath } from './store.js';

/** Static export endpoints: the standard ones, or the project-scoped inline-bundle variant. */
export function exportRoutes(ctx: ServerContext, deps: ApiDeps): ApiRoute[] {
  const prefix = ['v1', 'static-export'];
  if (deps.options.variant === 'inline-bundle') {
    return [
      {
        name: 'export.start',
        method: 'POST',
        pattern: routePattern(...prefix, SEGMENT, 'jobs'),
        handle: (ex, [projectId = '']) => startInlineExport(ctx, deps, ex, projectId),
      },
      {
        name: 'export.get',
        method: 'GET',
        pattern: routePattern(...prefix, SEGMENT, 'jobs', SEGMENT),
        handle: (ex, [projectId = '', jobId = '']) =>
          getInlineExport(ctx, deps, ex, projectId, jobId),
      },
    ];
  }
  return [
    {
      name: 'export.start',
      method: 'POST',
      pattern: routePattern(...prefix, 'jobs'),
      handle: (ex) => startExport(ctx, deps, ex),
    },
    {
      name: 'export.get',
      method: 'GET',
      pattern: routePattern(...prefix, 'jobs', SEGMENT),
      handle: async (ex, [jobId = '']) => getExport(ctx, deps, ex, jobId),
    },
    {
      name: 'export.bundle',
      method: 'POST',
      pattern: routePattern(...prefix, 'jobs', SEGMENT, 'bundle'),
      handle: (ex, [jobId = '']) => createBundle(ctx, deps, ex, jobId),
    },
  ];
}

type StartBody = { ok: true; start: Omit<ExportStart, 'projectId'> } | { ok: false; error: string };

function parseStartBody(body: unknown): StartBody {
  if (!isObject(body))
    return { ok: false, error: 'Request body must be a JSON object with "domain"' };
  const { domain, version, paths } = body;
  if (typeof domain !== 'string')
    return { ok: false, error: 'domain is required and must be a string' };
  const problem = domainProblem(domain);
  if (problem !== null) return { ok: false, error: problem };
  // Both are optional, and typed without null: absent is how a client leaves them out.
  if (version !== undefined && typeof version !== 'string') {
    return { ok: false, error: 'version must be a string' };
  }
  const isPathList = Array.isArray(paths) && paths.every((p) => typeof p === 'string');
  if (paths !== undefined && !isPathList) {
    return { ok: false, error: 'paths must be an array of strings' };
  }
  return {
    ok: true,
    start: { domain, version: version ?? null, paths: (paths as string[] | undefined) ?? null },
  };
}

async function readStart(ex: Exchange): Promise<Omit<ExportStart, 'projectId'> | undefined> {
  const body = await readApiJsonBody(ex.req);
  if (!body.ok) {
    sendError(ex, body.status, body.error);
    return undefined;
  }
  const parsed = parseStartBody(body.value);
  if (!parsed.ok) {
    sendError(ex, 400, parsed.error);
    return undefined;
  }
  return parsed.start;
}

function launch(ctx: ServerContext, deps: ApiDeps, start: ExportStart): ExportJobRecord {
  const job = deps.exportJobs.start(start, ctx.clock.now());
  if (job.failure === null) deps.archives.prepare(jobInfo(job));
  return job;
}

async function startExport(ctx: ServerContext, deps: ApiDeps, ex: Exchange): Promise<void> {
  const start = await readStart(ex);
  if (start === undefined) return;
  const job = launch(ctx, deps, { ...start, projectId: null });
  sendJson(ex, 202, viewOf(ctx, deps, job));
}

async function getExport(ctx: ServerContext, deps: ApiDeps, ex: Exchange, jobId: string) {
  const job = deps.exportJobs.get(jobId);
  if (job === undefined) sendError(ex, 404, `Export job ${jobId} not found`);
  else sendJson(ex, 200, viewOf(ctx, deps, job));
}

async function createBundle(ctx: ServerContext, deps: ApiDeps, ex: Exchange, jobId: string) {
  const job = deps.exportJobs.get(jobId);
  if (job === undefined) {
    sendError(ex, 404, `Export job ${jobId} not found`);
    return;
  }
  const state = deps.exportJobs.state(job, ctx.clock.now());
  // A failed job answers 409 like an unfinished one: the job's state, not the request, is wrong.
  if (state.status === 'failed') {
    sendError(ex, 409, `Export job failed, so it has no bundle: ${state.error ?? 'unknown error'}`);
  } else if (state.status !== 'completed') {
    sendError(ex, 409, 'Export job has not finished yet');
  } else {
    sendJson(ex, 200, { jobId: job.jobId, ...(await bundleLink(ctx, deps, ex, job)) });
  }
}

async function startInlineExport(
  ctx: ServerContext,
  deps: ApiDeps,
  ex: Exchange,
  projectId: string,
) {
  if (!knownProject(deps, ex, projectId)) return;
  const start = await readStart(ex);
  if (start === undefined) return;
  const now = ctx.clock.now();
  const active = deps.exportJobs.active(now);
  if (active !== undefined) {
    sendError(ex, 409, `An export job is already running for this organization: ${active.jobId}`);
    return;
  }
  const waitMs = deps.exportStarts.take('organization', now);
  if (waitMs > 0) {
    const limit = deps.exportStarts.limit;
    sendError(ex, 429, `Rate limit exceeded: ${limit} export jobs per organization per hour`);
    return;
  }
  const job = launch(ctx, deps, { ...start, projectId });
  sendJson(ex, 202, viewOf(ctx, deps, job));
}

async function getInlineExport(
  ctx: ServerContext,
  deps: ApiDeps,
  ex: Exchange,
  projectId: string,
  jobId: string,
) {
  const job = deps.exportJobs.get(jobId);
  if (job === undefined || job.projectId !== projectId) {
    sendError(ex, 404, `Export job ${jobId} not found`);
    return;
  }
  const view = viewOf(ctx, deps, job);
  const link = view.status === 'completed' ? await bundleLink(ctx, deps, ex, job) : {};
  sendJson(ex, 200, { ...view, ...link });
}

const viewOf = (ctx: ServerContext, deps: ApiDeps, job: ExportJobRecord) =>
  exportJobView(job, deps.exportJobs.state(job, ctx.clock.now()), deps.options.variant);

/** A fresh presigned link to the job's archive; an expireLink fault makes it already expired. */
async function bundleLink(ctx: ServerContext, deps: ApiDeps, ex: Exchange, job: ExportJobRecord) {
  const archive = await deps.archives.get(jobInfo(job));
  const lifetimeSec = deps.options.linkLifetimeSec;
  const now = ctx.clock.now();
  const signedAt = ex.fault?.expireLink === true ? now - (lifetimeSec + 60) * 1000 : now;
  const storeHost = new URL(deps.storeOrigin).host;
  const signed = deps.signer.presign({
    host: storeHost,
    path: objectPath(job),
    signedAt,
    expiresSec: lifetimeSec,
  });
  return {
    bundleUrl: `${deps.storeOrigin}${signed}`,
    sizeBytes: archive.size,
    // SigV4 dates have whole seconds, so the link expires on a whole second too.
    expiresAt: iso(Math.floor(signedAt / 1000) * 1000 + lifetimeSec * 1000),
  };
}
