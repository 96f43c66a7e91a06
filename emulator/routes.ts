import type { AgentJobs } from './agent-jobs.js';
import type { Exchange } from './exchange.js';
import { createExchangeServer, sendError } from './exchange.js';
import type { ExportJobs } from './export-jobs.js';
import type { JobArchives } from './job-archives.js';
import type { ResolvedOptions } from './options.js';
import type { RollingWindowLimit } from './rate-limit.js';
import type { QuerySigner } from './sigv4.js';
import type { RecordedRoute } from './types.js';

export interface ApiDeps {
  options: ResolvedOptions;
  exportJobs: ExportJobs;
  agentJobs: AgentJobs;
  archives: JobArchives;
  signer: QuerySigner;
  /** Origin of the object store, e.g. http://127.0.0.1:43122 */
  storeOrigin: string;
  exportStarts: RollingWindowLimit;
  agentUses: RollingWindowLimit;
  /** Handles /__emulator/ requests (never recorded); returns false for other paths. */
  control: Parameters<typeof createExchangeServer>[1]['intercept'];
}

export interface ApiRoute {
  name: Exclude<RecordedRoute, 'unknown' | 'store.get'>;
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (ex: Exchange, params: string[]) => Promise<void>;
}

export const SEGMENT = '([^/]+)';
/** A route pattern from path segments; SEGMENT captures one path parameter. */
export const routePattern = (...parts: string[]): RegExp => new RegExp(`^/${parts.join('/')}/?$`);

/** Answers 404 unless the project exists. */
export function knownProject(deps: ApiDeps, ex: Exchange, projectId: string): boolean {
  if (deps.options.projects.includes(projectId)) return true;
  sendError(ex, 404, `Project ${projectId} not found`);
  return false;
}
