import type { OutgoingHttpHeaders } from 'node:http';
import type { Exchange, ServerContext } from './exchange.js';
import { isObject, readApiJsonBody, sendError, sendJson } from './exchange.js';
import type { ApiDeps, ApiRoute } from './routes.js';
import { knownProject, routePattern, SEGMENT } from './routes.js';

/** Agent job endpoints: create, get and follow-up message. */
export function agentRoutes(ctx: ServerContext, deps: ApiDeps): ApiRoute[] {
  const prefix = ['v2', 'agent', SEGMENT, 'job'];
  return [
    {
      name: 'agent.create',
      method: 'POST',
      pattern: routePattern(...prefix),
      handle: (ex, [projectId = '']) => createAgentJob(ctx, deps, ex, projectId),
    },
    {
      name: 'agent.get',
      method: 'GET',
      pattern: routePattern(...prefix, SEGMENT),
      handle: async (ex, [projectId = '', id = '']) => getAgentJob(ctx, deps, ex, projectId, id),
    },
    {
      name: 'agent.message',
      method: 'POST',
      pattern: routePattern(...prefix, SEGMENT, 'message'),
      handle: (ex, [projectId = '', id = '']) => messageAgentJob(ctx, deps, ex, projectId, id),
    },
  ];
}

async function readPrompt(ex: Exchange): Promise<string | undefined> {
  const body = await readApiJsonBody(ex.req);
  if (!body.ok) {
    sendError(ex, body.status, body.error);
    return undefined;
  }
  const prompt = isObject(body.value) ? body.value.prompt : undefined;
  if (typeof prompt !== 'string' || prompt.length === 0) {
    sendError(ex, 400, 'prompt is required and must be a non-empty string');
    return undefined;
  }
  return prompt;
}

/** Takes one agent use of the project's hourly budget, or answers 429. */
function takeAgentUse(ctx: ServerContext, deps: ApiDeps, ex: Exchange, projectId: string): boolean {
  const waitMs = deps.agentUses.take(projectId, ctx.clock.now());
  if (waitMs === 0) return true;
  const headers: OutgoingHttpHeaders = {};
  if (deps.options.agentRetryAfter) {
    // Retry-After is in real seconds: scale the emulator wait back to wall-clock time.
    const realMs = ctx.clock.scale > 0 ? waitMs / ctx.clock.scale : waitMs;
    headers['retry-after'] = String(Math.ceil(realMs / 1000));
  }
  const limit = deps.agentUses.limit;
  sendError(ex, 429, `Rate limit exceeded: ${limit} agent jobs per project per hour`, headers);
  return false;
}

async function createAgentJob(ctx: ServerContext, deps: ApiDeps, ex: Exchange, projectId: string) {
  if (!knownProject(deps, ex, projectId)) return;
  const prompt = await readPrompt(ex);
  if (prompt === undefined || !takeAgentUse(ctx, deps, ex, projectId)) return;
  const now = ctx.clock.now();
  const job = deps.agentJobs.create(projectId, prompt, now);
  const { status, ...withoutStatus } = deps.agentJobs.view(job, now);
  // The documented create example omits `status`; mimic it unless asked otherwise.
  sendJson(
    ex,
    201,
    deps.options.createIncludesStatus ? { status, ...withoutStatus } : withoutStatus,
  );
}

function findAgentJob(deps: ApiDeps, ex: Exchange, projectId: string, id: string) {
  if (!knownProject(deps, ex, projectId)) return undefined;
  const job = deps.agentJobs.get(id);
  if (job !== undefined && job.projectId === projectId) return job;
  sendError(ex, 404, 'Job not found');
  return undefined;
}

function getAgentJob(
  ctx: ServerContext,
  deps: ApiDeps,
  ex: Exchange,
  projectId: string,
  id: string,
) {
  const job = findAgentJob(deps, ex, projectId, id);
  if (job !== undefined) sendJson(ex, 200, deps.agentJobs.view(job, ctx.clock.now()));
}

async function messageAgentJob(
  ctx: ServerContext,
  deps: ApiDeps,
  ex: Exchange,
  projectId: string,
  id: string,
) {
  const job = findAgentJob(deps, ex, projectId, id);
  if (job === undefined) return;
  const prompt = await readPrompt(ex);
  if (prompt === undefined) return;
  if (deps.agentJobs.view(job, ctx.clock.now()).status === 'archived') {
    sendError(ex, 400, 'Job is archived: create a new agent job instead');
    return;
  }
  if (!takeAgentUse(ctx, deps, ex, projectId)) return;
  const now = ctx.clock.now();
  deps.agentJobs.addMessage(job, prompt, now);
  sendJson(ex, 200, deps.agentJobs.view(job, now));
}
