import type { Readable } from 'node:stream';

/** Names of the routes a fault rule can target ('*' matches every recorded request). */
export type Route =
  | 'export.start'
  | 'export.get'
  | 'export.bundle'
  | 'store.get'
  | 'agent.create'
  | 'agent.get'
  | 'agent.message'
  | '*';

/** The route a recorded request resolved to; 'unknown' when no route matched its path. */
export type RecordedRoute = Exclude<Route, '*'> | 'unknown';

export interface FaultRule {
  route: Route;
  /** How many matching requests the rule applies to (default 1, Infinity allowed). */
  times?: number;
  /** The status answered; store.get answers 429 as S3 throttles, with 503 SlowDown. */
  status?: number;
  /** 'json' = {"error"}, 'html' = a proxy-style 502 page, any other string is sent verbatim. */
  body?: 'json' | 'html' | string;
  /**
   * Sent verbatim as the Retry-After header of the rule's answer: '2' or an HTTP date. Needs
   * a status or body to go out with.
   */
  retryAfter?: string;
  /** Destroy the socket without a response. */
  reset?: boolean;
  /** Real milliseconds to wait before handling the request. */
  latencyMs?: number;
  /** store.get: send the headers and this many body bytes, then destroy the socket. */
  cutAfterBytes?: number;
  /** store.get: send this many body bytes, then stop sending but keep the socket open. */
  stallAfterBytes?: number;
  /** store.get: the body byte at this offset is changed on the way (the ETag stays the stored bytes'). */
  flipByteAt?: number;
  /** store.get: Content-Length announces fewer ('longer' body) or more ('shorter' body) bytes. */
  lengthMismatch?: 'longer' | 'shorter';
  /** store.get: from this request on, the job's archive is regenerated with different bytes. */
  changeArchive?: boolean;
  /** store.get: the link is treated as expired; export.bundle / inline export.get: issue an expired link. */
  expireLink?: boolean;
  /** The error body echoes the request's Authorization header (to test client-side scrubbing). */
  echoAuthorization?: boolean;
  /**
   * API routes: the request is handled first (a job is created), then the rule's answer
   * replaces the server's own, as a gateway that timed out or lost the upstream's answer.
   */
  handledFirst?: boolean;
}

export interface FaultPlan {
  add(rule: FaultRule): void;
  clear(): void;
  /** Rules not yet used up, in the order they will be matched. */
  readonly pending: readonly Readonly<FaultRule>[];
}

export interface RecordedRequest {
  server: 'api' | 'store';
  method: string;
  /** Path without the query string. */
  path: string;
  route: RecordedRoute;
  /** Status sent; 0 while no response headers went out (or never will, after a reset). */
  status: number;
  hasAuthorization: boolean;
  /** Emulator clock (ms since the epoch) when the request arrived. */
  at: number;
  /** True when a fault rule was applied to this request. */
  faulted: boolean;
}

export interface EmulatorClock {
  /** Emulator time in ms since the epoch. */
  now(): number;
  /** Jump the emulator clock forward. */
  advance(ms: number): void;
  /** Emulator milliseconds per real millisecond. */
  readonly scale: number;
}

export type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';
export type AgentStatus = 'active' | 'completed' | 'archived' | 'failed';
export type ArchiveFormat = 'tar.gz' | 'zip';
export type ProgressProfile = 'linear' | 'stall-then-jump';
export type ExportVariant = 'standard' | 'inline-bundle';

/** How an export job ends; returned by the outcomeFor hook. */
export type ExportOutcome =
  { status: 'completed'; pageCount?: number } | { status: 'failed'; error?: string };

/** What the archiveFor hook and the exportJobs accessor see of a job. */
export interface ExportJobInfo {
  jobId: string;
  /** Set in the inline-bundle variant, where export paths carry the project. */
  projectId: string | null;
  domain: string;
  version: string | null;
  paths: string[] | null;
  /** Pages of the finished export (the archive holds this many HTML pages). */
  totalPages: number;
  /** Increased by each changeArchive fault; part of the archive's generation parameters. */
  revision: number;
  format: ArchiveFormat;
}

/** The export job as the API returns it at the current emulator time. */
export interface ExportJobView {
  jobId: string;
  status: ExportStatus;
  progress?: number;
  pageCount?: number;
  createdAt: string;
  updatedAt: string;
  error: string | null;
  bundleUrl?: string;
  sizeBytes?: number;
  expiresAt?: string;
}

export interface AgentJobView {
  id: string;
  status: AgentStatus;
  source: { repository: string; ref: string | null };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
  error?: string;
}

/** Archive bytes supplied by the archiveFor hook: the bytes themselves or a file path. */
export type ArchiveOverride = Buffer | string;

export interface EmulatorOptions {
  /** API port; 0 (default) picks an ephemeral port. */
  port?: number;
  /** Object store port; 0 (default) picks an ephemeral port. */
  storePort?: number;
  /** Address both servers listen on, 127.0.0.1 by default: loopback only unless allowed below. */
  host?: string;
  /**
   * Lets `host` be an address other machines reach. The control endpoints take no key, so
   * anyone who reaches the emulator can drive it.
   */
  allowNonLoopbackHost?: boolean;
  keys?: Partial<{ write: string; read: string }>;
  projects?: string[];
  /** Emulator ms from start to completion, queued phase included. */
  jobDurationMs?: number;
  queuedMs?: number;
  pageCount?: number;
  progressProfile?: ProgressProfile;
  archiveFormat?: ArchiveFormat;
  /** Pad the archive with incompressible files to about this size. */
  archiveSizeBytes?: number;
  /** Extra small non-HTML files; the padding is spread over them when both are set. */
  fileCount?: number;
  linkLifetimeSec?: number;
  variant?: ExportVariant;
  /** Emulator ms per real ms: 10 runs jobs and link lifetimes 10x faster; 0 freezes the clock. */
  timeScale?: number;
  agentDurationMs?: number;
  agentRateLimit?: number;
  agentRetryAfter?: boolean;
  /** The create-agent response carries `status` (the documented example omits it). */
  createIncludesStatus?: boolean;
  /** Variant: failed agent jobs carry an `error` text, a field the vendor's schema lacks. */
  agentFailureReason?: boolean;
  /** Starts per organization per rolling hour in the inline-bundle variant. */
  exportStartLimit?: number;
  outcomeFor?: (
    domain: string,
  ) => ExportOutcome | ExportOutcome['status'] | undefined | null | void;
  archiveFor?: (
    job: ExportJobInfo,
  ) =>
    ArchiveOverride | undefined | null | void | Promise<ArchiveOverride | undefined | null | void>;
  cacheDir?: string;
  log?: ((line: string) => void) | false;
}

export interface ExportJobsAccessor {
  get(jobId: string): (ExportJobInfo & { view: ExportJobView }) | undefined;
  list(): (ExportJobInfo & { view: ExportJobView })[];
}

export interface AgentJobsAccessor {
  get(id: string): (AgentJobView & { projectId: string; prompts: string[] }) | undefined;
  list(): (AgentJobView & { projectId: string; prompts: string[] })[];
}

export interface Emulator {
  baseUrl: string;
  storeUrl: string;
  keys: { write: string; read: string };
  faults: FaultPlan;
  requests: RecordedRequest[];
  clock: EmulatorClock;
  exportJobs: ExportJobsAccessor;
  agentJobs: AgentJobsAccessor;
  archiveAgentJob(projectId: string, id: string): AgentJobView | undefined;
  stop(): Promise<void>;
}

/** A servable archive: its size, ETag and a way to stream any byte range of it. */
export interface ArchiveObject {
  size: number;
  /** Quoted MD5 of the bytes, as S3 reports for single-part objects. */
  etag: string;
  contentType: string;
  lastModified: Date;
  /** Stream bytes start..end, both inclusive. */
  open(start: number, end: number): Readable;
}
