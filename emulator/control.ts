import type { IncomingMessage, ServerResponse } from 'node:http';
import { iso } from './clock.js';
import { isObject, readJsonBody, safeDecode } from './exchange.js';
import { faultRuleSchema } from './faults.js';
import type {
  FaultPlan,
  FaultRule,
  EmulatorClock,
  RecordedRequest,
  AgentJobView,
} from './types.js';

export interface ControlDeps {
  faults: FaultPlan;
  requests: RecordedRequest[];
  clock: EmulatorClock;
  archiveAgentJob: (projectId: string, id: string) => AgentJobView | undefined;
}

const PREFIX = '/__emulator/';

/**
 * Unauthenticated endpoints that let a shell or child process drive the emulator. They are
 * answered here and never recorded in `requests`.
 */
export function controlEndpoints(deps: ControlDeps) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (!url.pathname.startsWith(PREFIX)) return false;
    const route = `${req.method ?? 'GET'} ${url.pathname.slice(PREFIX.length).replace(/\/$/, '')}`;
    const archive = /^POST agent\/([^/]+)\/([^/]+)\/archive$/.exec(route);
    if (archive !== null) {
      const [, projectId = '', id = ''] = archive.map(safeDecode);
      const job = deps.archiveAgentJob(projectId, id);
      reply(res, job === undefined ? 404 : 200, job ?? { error: 'Job not found' });
      return true;
    }
    switch (route) {
      case 'POST faults':
        await addFault(deps, req, res);
        break;
      case 'GET faults':
        reply(res, 200, deps.faults.pending);
        break;
      case 'DELETE faults':
        deps.faults.clear();
        reply(res, 204);
        break;
      case 'GET requests':
        reply(res, 200, deps.requests);
        break;
      case 'DELETE requests':
        deps.requests.length = 0;
        reply(res, 204);
        break;
      case 'GET clock':
        reply(res, 200, clockState(deps.clock));
        break;
      case 'POST clock/advance':
        await advanceClock(deps, req, res);
        break;
      default:
        reply(res, 404, { error: `Unknown control endpoint: ${route}` });
    }
    return true;
  };
}

async function addFault(deps: ControlDeps, req: IncomingMessage, res: ServerResponse) {
  const body = await readJsonBody(req);
  if (!body.ok) {
    reply(res, body.status, { error: body.error });
    return;
  }
  const rule = faultRuleSchema.safeParse(body.value);
  if (!rule.success) {
    const problems = rule.error.issues.map((i) => `${i.path.join('.') || 'rule'}: ${i.message}`);
    reply(res, 400, { error: `Invalid fault rule: ${problems.join('; ')}` });
    return;
  }
  deps.faults.add(rule.data as FaultRule);
  reply(res, 201, { pending: deps.faults.pending.length });
}

async function advanceClock(deps: ControlDeps, req: IncomingMessage, res: ServerResponse) {
  const body = await readJsonBody(req);
  const ms = body.ok && isObject(body.value) ? body.value.ms : undefined;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    reply(res, 400, { error: 'Send {"ms": <milliseconds >= 0>}' });
    return;
  }
  deps.clock.advance(ms);
  reply(res, 200, clockState(deps.clock));
}

const clockState = (clock: EmulatorClock) => ({
  now: iso(clock.now()),
  nowMs: clock.now(),
  scale: clock.scale,
});

function reply(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
