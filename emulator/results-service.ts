/**
 * The GitHub Actions results service as @actions/artifact v2+ sees it: the Twirp JSON
 * `ArtifactService` (authorised by the runner's ACTIONS_RUNTIME_TOKEN JWT) and the Azure
 * block blob endpoint its signed URLs point to, both on one loopback node:http server.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';

const SERVICE = 'github.actions.results.api.v1.ArtifactService';
/** First path segment of blob URLs: IP-style Azure URLs are /<account>/<container>/<blob>. */
const ACCOUNT = 'resultsemulator';
const CONTAINER = 'actions-results';
const STORAGE_VERSION = '2025-01-05';
const TWIRP_BODY_LIMIT = 1024 * 1024;
/** Azure's limit for one staged block (4000 MiB) is far beyond what a test should hold. */
const BLOCK_BODY_LIMIT = 256 * 1024 * 1024;
const DUPLICATE_NAME = 'an artifact with this name already exists on the workflow run';
/** The characters @actions/artifact refuses in a name, which the service refuses too. */
const INVALID_NAME_CHARACTERS = ['"', ':', '<', '>', '|', '*', '?', '\r', '\n', '\\', '/'];

export type ArtifactMethod =
  | 'CreateArtifact'
  | 'FinalizeArtifact'
  | 'ListArtifacts'
  | 'GetSignedArtifactURL'
  | 'DeleteArtifact';
export type ResultsRoute =
  ArtifactMethod | 'blob.block' | 'blob.blocklist' | 'blob.put' | 'blob.get';

/** Twirp error codes (https://twitchtv.github.io/twirp/docs/spec_v7.html#error-codes). */
export type TwirpCode = keyof typeof TWIRP_STATUS;
const TWIRP_STATUS = {
  canceled: 408,
  unknown: 500,
  invalid_argument: 400,
  malformed: 400,
  deadline_exceeded: 408,
  not_found: 404,
  bad_route: 404,
  already_exists: 409,
  permission_denied: 403,
  unauthenticated: 401,
  resource_exhausted: 429,
  failed_precondition: 412,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  dataloss: 500,
} as const;

/**
 * One planned failure. Twirp routes answer `{code, msg}` with the code's status (or
 * `status`); blob routes answer an Azure XML error (`code` is then the Azure error code).
 * Note that @actions/artifact retries 429/5xx Twirp answers with waits of 3 s and more.
 */
export interface ResultsFailure {
  route: ResultsRoute | '*';
  status?: number;
  code?: string;
  msg?: string;
  /** How many matching requests fail (default 1; `Infinity` for all). */
  times?: number;
}

export interface ResultsServiceOptions {
  host?: string;
  port?: number;
  /** Backend ids put in the runtime token's `Actions.Results:<runId>:<jobId>` scope. */
  runId?: string;
  jobId?: string;
  /** Failures to answer, in order, before any added with `fail()`. */
  failures?: ResultsFailure[];
  /** Id of the first artifact (then +1 each); real ids are int64 database ids. */
  firstArtifactId?: number;
  /** How long signed blob URLs stay valid (default 1 hour). */
  signedUrlTtlMs?: number;
}

export interface StoredArtifact {
  id: string;
  name: string;
  runId: string;
  jobId: string;
  /** Bytes of the committed blob (0 until the block list is committed). */
  size: number;
  /** The committed blob: the zip @actions/artifact built (or the raw file with skipArchive). */
  zip: Buffer;
  /** Content type set with the block list (`x-ms-blob-content-type`). */
  contentType?: string;
  /** `sha256:<hex>` as sent with FinalizeArtifact. */
  digest?: string;
  finalized: boolean;
  createdAt: Date;
}

export interface ResultsRequest {
  route: ResultsRoute | 'unknown';
  method: string;
  /** Path without the query string (the signature never reaches the record). */
  path: string;
  status: number;
  hasAuthorization: boolean;
  /** Request body bytes. */
  bytes: number;
  /** Twirp error code or Azure error code of a failed answer. */
  error?: string;
}

export interface ResultsService {
  /** Origin for ACTIONS_RESULTS_URL. */
  url: string;
  /** A signed JWT for ACTIONS_RUNTIME_TOKEN with the run and job of the options. */
  runtimeToken: string;
  runId: string;
  jobId: string;
  /** The variables a runner sets for this service on github.com. */
  env: Record<string, string>;
  /** Every artifact created and not deleted, in creation order; entries update in place. */
  artifacts: StoredArtifact[];
  requests: ResultsRequest[];
  /** Plans a failure for the next matching request(s). */
  fail(rule: ResultsFailure): void;
  /** A token for another job of the same run (or another run), or one that has expired. */
  mintToken(claims?: { runId?: string; jobId?: string; expiresInMs?: number }): string;
  stop(): Promise<void>;
}

interface BlobState {
  uncommitted: Map<string, Buffer>;
  committed: Map<string, Buffer>;
  /** Length of the decoded block ids of this blob: Azure wants them all the same. */
  blockIdLength?: number;
}

interface ArtifactRecord {
  artifact: StoredArtifact;
  blobPath: string;
  blob: BlobState;
  committed: boolean;
}

/** An error answer: Twirp JSON or Azure XML, whichever the route speaks. */
class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const twirpError = (code: TwirpCode, msg: string) =>
  new ServiceError(TWIRP_STATUS[code], code, msg);
const blobError = (status: number, code: string, msg: string) =>
  new ServiceError(status, code, msg);

export async function startResultsService(
  options: ResultsServiceOptions = {},
): Promise<ResultsService> {
  const host = options.host ?? '127.0.0.1';
  const runId = options.runId ?? randomUUID();
  const jobId = options.jobId ?? randomUUID();
  const urlTtlMs = options.signedUrlTtlMs ?? 60 * 60 * 1000;
  const tokenSecret = randomBytes(32);
  const sasSecret = randomBytes(32);
  const failures = (options.failures ?? []).map((rule) => ({ ...rule, left: rule.times ?? 1 }));
  const records: ArtifactRecord[] = [];
  const artifacts: StoredArtifact[] = [];
  const requests: ResultsRequest[] = [];
  let nextId = options.firstArtifactId ?? 4_100_000_001;
  let origin = '';

  const mintToken: ResultsService['mintToken'] = (claims = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: 'vstoken.actions.githubusercontent.com',
      aud: 'vstoken.actions.githubusercontent.com',
      nbf: now - 60,
      iat: now,
      exp: now + Math.floor((claims.expiresInMs ?? 6 * 60 * 60 * 1000) / 1000),
      scp: `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${claims.runId ?? runId}:${claims.jobId ?? jobId}`,
    };
    return signJwt(payload, tokenSecret);
  };

  const takeFailure = (route: ResultsRoute) => {
    const rule = failures.find((r) => r.left > 0 && (r.route === route || r.route === '*'));
    if (rule) rule.left -= 1;
    return rule;
  };

  /** Signed blob URLs: HMAC over permissions, expiry and path, like an Azure service SAS. */
  const signBlobUrl = (blobPath: string, permissions: 'cw' | 'r') => {
    const params = new URLSearchParams({
      sv: STORAGE_VERSION,
      st: new Date(Date.now() - 60_000).toISOString(),
      se: new Date(Date.now() + urlTtlMs).toISOString(),
      sr: 'b',
      sp: permissions,
    });
    params.set('sig', sasSignature(sasSecret, blobPath, params));
    return `${origin}${blobPath}?${params.toString()}`;
  };

  const findByName = (run: string, name: string) =>
    records.find((r) => r.artifact.runId === run && r.artifact.name === name);

  const twirp: Record<ArtifactMethod, (scope: Scope, body: JsonObject) => unknown> = {
    CreateArtifact(scope, body) {
      requireOwnJob(scope, body);
      const name = artifactName(body);
      const version = body.version;
      if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
        throw twirpError('invalid_argument', 'version must be a positive integer');
      }
      if (findByName(scope.runId, name)) throw twirpError('already_exists', DUPLICATE_NAME);
      const artifact: StoredArtifact = {
        id: String(nextId++),
        name,
        runId: scope.runId,
        jobId: scope.jobId,
        size: 0,
        zip: Buffer.alloc(0),
        finalized: false,
        createdAt: new Date(),
      };
      const digest = createHash('sha256').update(`${artifact.id}/${name}`).digest('hex');
      const blobPath = `/${ACCOUNT}/${CONTAINER}/${scope.runId}/workflow-job-run-${scope.jobId}/artifacts/${digest}.zip`;
      records.push({
        artifact,
        blobPath,
        blob: { uncommitted: new Map(), committed: new Map() },
        committed: false,
      });
      artifacts.push(artifact);
      return { ok: true, signed_upload_url: signBlobUrl(blobPath, 'cw') };
    },

    FinalizeArtifact(scope, body) {
      requireOwnJob(scope, body);
      const name = artifactName(body);
      const record = findByName(scope.runId, name);
      if (!record || record.artifact.jobId !== scope.jobId) {
        throw twirpError('not_found', `artifact ${name} was not created by this job`);
      }
      if (record.artifact.finalized) {
        throw twirpError('failed_precondition', `artifact ${name} is already finalized`);
      }
      if (!record.committed) {
        throw twirpError('failed_precondition', `no blob was committed for artifact ${name}`);
      }
      const size = int64(body.size, 'size');
      if (size !== record.artifact.size) {
        throw twirpError(
          'invalid_argument',
          `size ${size} does not match the ${record.artifact.size} bytes uploaded`,
        );
      }
      if (body.hash !== undefined) {
        const expected = `sha256:${createHash('sha256').update(record.artifact.zip).digest('hex')}`;
        if (body.hash !== expected) {
          throw twirpError(
            'invalid_argument',
            `hash ${String(body.hash)} does not match the upload`,
          );
        }
        record.artifact.digest = expected;
      }
      record.artifact.finalized = true;
      return { ok: true, artifact_id: record.artifact.id };
    },

    ListArtifacts(scope, body) {
      requireOwnRun(scope, body);
      const nameFilter = body.name_filter;
      const idFilter = body.id_filter === undefined ? undefined : String(body.id_filter);
      return {
        artifacts: records
          .map((r) => r.artifact)
          .filter(
            (a) =>
              a.runId === scope.runId &&
              a.finalized &&
              (nameFilter === undefined || a.name === nameFilter) &&
              (idFilter === undefined || a.id === idFilter),
          )
          .map((a) => ({
            workflow_run_backend_id: a.runId,
            workflow_job_run_backend_id: a.jobId,
            database_id: a.id,
            name: a.name,
            size: String(a.size),
            created_at: a.createdAt.toISOString(),
            ...(a.digest ? { digest: a.digest } : {}),
          })),
      };
    },

    GetSignedArtifactURL(scope, body) {
      requireOwnRun(scope, body);
      const name = artifactName(body);
      const record = findByName(scope.runId, name);
      if (!record?.artifact.finalized) throw twirpError('not_found', `artifact ${name} not found`);
      return { signed_url: signBlobUrl(record.blobPath, 'r') };
    },

    DeleteArtifact(scope, body) {
      requireOwnRun(scope, body);
      const name = artifactName(body);
      const record = findByName(scope.runId, name);
      if (!record?.artifact.finalized) throw twirpError('not_found', `artifact ${name} not found`);
      records.splice(records.indexOf(record), 1);
      artifacts.splice(artifacts.indexOf(record.artifact), 1);
      return { ok: true, artifact_id: record.artifact.id };
    },
  };

  const handleTwirp = async (req: IncomingMessage, res: ServerResponse, entry: ResultsRequest) => {
    const prefix = `/twirp/${SERVICE}/`;
    const method = entry.path.slice(prefix.length) as ArtifactMethod;
    if (!entry.path.startsWith(prefix) || !Object.hasOwn(twirp, method)) {
      throw twirpError('bad_route', `no handler for path "${entry.path}"`);
    }
    entry.route = method;
    if (req.method !== 'POST') {
      throw twirpError('bad_route', `unsupported method ${req.method} (only POST is allowed)`);
    }
    const body = await readBody(req, TWIRP_BODY_LIMIT, () =>
      twirpError('invalid_argument', 'the request body is too large'),
    );
    entry.bytes = body.length;
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (contentType !== 'application/json') {
      throw twirpError(
        'bad_route',
        `unexpected Content-Type: "${contentType}" (the emulator speaks Twirp JSON only)`,
      );
    }
    const scope = verifyToken(req.headers.authorization, tokenSecret);
    const failure = takeFailure(method);
    if (failure) throw plannedTwirpFailure(failure);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw twirpError('malformed', 'the request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw twirpError('malformed', 'the request body is not a JSON object');
    }
    const answer = twirp[method](scope, parsed as JsonObject);
    send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(answer));
  };

  const handleBlob = async (req: IncomingMessage, res: ServerResponse, entry: ResultsRequest) => {
    const url = new URL(req.url ?? '/', 'http://blob');
    const comp = url.searchParams.get('comp');
    entry.route =
      req.method === 'GET' || req.method === 'HEAD'
        ? 'blob.get'
        : comp === 'block'
          ? 'blob.block'
          : comp === 'blocklist'
            ? 'blob.blocklist'
            : 'blob.put';
    const body = await readBody(req, BLOCK_BODY_LIMIT, () =>
      blobError(413, 'RequestBodyTooLarge', 'The request body is too large.'),
    );
    entry.bytes = body.length;
    const record = records.find((r) => r.blobPath === url.pathname);
    const needed = entry.route === 'blob.get' ? 'r' : 'w';
    checkSas(url, needed, sasSecret);
    const failure = takeFailure(entry.route);
    if (failure) {
      throw blobError(
        failure.status ?? 500,
        failure.code ?? 'InternalError',
        failure.msg ?? 'planned failure',
      );
    }
    if (!record) throw blobError(404, 'BlobNotFound', 'The specified blob does not exist.');
    if (entry.route !== 'blob.get' && !req.headers['x-ms-version']) {
      throw blobError(
        400,
        'MissingRequiredHeader',
        "An HTTP header that's mandatory for this request is not specified.",
      );
    }
    const headers = storageHeaders();
    switch (entry.route) {
      case 'blob.get': {
        if (!record.committed) {
          throw blobError(404, 'BlobNotFound', 'The specified blob does not exist.');
        }
        const blob = record.artifact.zip;
        send(
          res,
          200,
          {
            ...headers,
            'content-type': record.artifact.contentType ?? 'application/octet-stream',
            'content-length': String(blob.length),
            etag: etagOf(blob),
            'x-ms-blob-type': 'BlockBlob',
          },
          req.method === 'HEAD' ? undefined : blob,
        );
        return;
      }
      case 'blob.block': {
        const id = url.searchParams.get('blockid') ?? '';
        const decoded = decodeBlockId(id);
        if (
          record.blob.blockIdLength !== undefined &&
          decoded.length !== record.blob.blockIdLength
        ) {
          throw blobError(
            400,
            'InvalidBlobOrBlock',
            'The specified blob or block content is invalid.',
          );
        }
        record.blob.blockIdLength = decoded.length;
        record.blob.uncommitted.set(id, body);
        send(res, 201, { ...headers, 'content-md5': md5(body) });
        return;
      }
      case 'blob.blocklist': {
        const blocks = parseBlockList(body.toString('utf8'));
        const chosen = blocks.map(({ kind, id }) => {
          const data =
            kind === 'Committed'
              ? record.blob.committed.get(id)
              : kind === 'Uncommitted'
                ? record.blob.uncommitted.get(id)
                : (record.blob.uncommitted.get(id) ?? record.blob.committed.get(id));
          if (!data)
            throw blobError(400, 'InvalidBlockList', 'The specified block list is invalid.');
          return [id, data] as const;
        });
        commit(record, new Map(chosen), Buffer.concat(chosen.map(([, data]) => data)), req);
        send(res, 201, { ...headers, etag: etagOf(record.artifact.zip) });
        return;
      }
      case 'blob.put': {
        if (comp !== null || req.headers['x-ms-blob-type'] !== 'BlockBlob') {
          throw blobError(400, 'UnsupportedQueryParameter', 'Only block blobs are emulated.');
        }
        commit(record, new Map(), body, req);
        send(res, 201, { ...headers, etag: etagOf(body), 'content-md5': md5(body) });
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const entry: ResultsRequest = {
      route: 'unknown',
      method: req.method ?? '',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      status: 0,
      hasAuthorization: req.headers.authorization !== undefined,
      bytes: 0,
    };
    requests.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    const isBlob = entry.path.startsWith(`/${ACCOUNT}/`);
    (isBlob ? handleBlob : handleTwirp)(req, res, entry).catch((error: unknown) => {
      if (!(error instanceof ServiceError)) {
        error = isBlob
          ? blobError(500, 'InternalError', String(error))
          : twirpError('internal', String(error));
      }
      const failure = error as ServiceError;
      entry.error = failure.code;
      if (res.headersSent) {
        res.destroy();
      } else if (isBlob) {
        send(
          res,
          failure.status,
          {
            ...storageHeaders(),
            'content-type': 'application/xml',
            'x-ms-error-code': failure.code,
          },
          `<?xml version="1.0" encoding="utf-8"?><Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message></Error>`,
        );
      } else {
        send(
          res,
          failure.status,
          { 'content-type': 'application/json' },
          JSON.stringify({ code: failure.code, msg: failure.message }),
        );
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const runtimeToken = mintToken();

  let stopping: Promise<void> | undefined;
  return {
    url: origin,
    runtimeToken,
    runId,
    jobId,
    env: {
      ACTIONS_RESULTS_URL: `${origin}/`,
      ACTIONS_RUNTIME_TOKEN: runtimeToken,
      GITHUB_SERVER_URL: 'https://github.com',
    },
    artifacts,
    requests,
    fail: (rule) => failures.push({ ...rule, left: rule.times ?? 1 }),
    mintToken,
    stop: () => {
      stopping ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

type JsonObject = Record<string, unknown>;
interface Scope {
  runId: string;
  jobId: string;
}

function plannedTwirpFailure(rule: ResultsFailure): ServiceError {
  const code =
    rule.code ??
    (Object.entries(TWIRP_STATUS).find(([, status]) => status === rule.status)?.[0] as
      TwirpCode | undefined) ??
    'internal';
  const status = rule.status ?? TWIRP_STATUS[code as TwirpCode] ?? 500;
  return new ServiceError(status, code, rule.msg ?? 'planned failure');
}

function requireOwnRun(scope: Scope, body: JsonObject): void {
  if (body.workflow_run_backend_id !== scope.runId) {
    throw twirpError(
      'permission_denied',
      'the runtime token does not grant access to this workflow run',
    );
  }
}

/** Creating and finalizing an artifact belong to the job the token was issued to. */
function requireOwnJob(scope: Scope, body: JsonObject): void {
  requireOwnRun(scope, body);
  if (body.workflow_job_run_backend_id !== scope.jobId) {
    throw twirpError('permission_denied', 'the runtime token does not grant access to this job');
  }
}

function artifactName(body: JsonObject): string {
  const name = body.name;
  if (typeof name !== 'string' || name === '')
    throw twirpError('invalid_argument', 'name is required');
  const bad = INVALID_NAME_CHARACTERS.find((c) => name.includes(c));
  if (bad !== undefined) {
    throw twirpError(
      'invalid_argument',
      `artifact name contains the invalid character ${JSON.stringify(bad)}`,
    );
  }
  return name;
}

/** int64 arrives as a JSON string (proto3 JSON mapping) or, from lenient clients, a number. */
function int64(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw twirpError('invalid_argument', `${field} must be a non-negative int64`);
  }
  return n;
}

function commit(
  record: ArtifactRecord,
  blocks: Map<string, Buffer>,
  blob: Buffer,
  req: IncomingMessage,
): void {
  record.blob.committed = blocks;
  record.blob.uncommitted = new Map();
  record.committed = true;
  record.artifact.zip = blob;
  record.artifact.size = blob.length;
  const contentType = req.headers['x-ms-blob-content-type'] ?? req.headers['content-type'];
  if (typeof contentType === 'string') record.artifact.contentType = contentType;
}

/** `<BlockList><Latest>id</Latest>…</BlockList>` as the Put Block List operation takes it. */
function parseBlockList(
  xml: string,
): { kind: 'Latest' | 'Committed' | 'Uncommitted'; id: string }[] {
  const inner = /<BlockList>([\s\S]*)<\/BlockList>/.exec(xml)?.[1];
  if (inner === undefined) {
    if (/<BlockList\s*\/>/.test(xml)) return [];
    throw blobError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.');
  }
  const blocks: { kind: 'Latest' | 'Committed' | 'Uncommitted'; id: string }[] = [];
  const element = /<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>|(\S)/g;
  for (const match of inner.matchAll(element)) {
    if (match[3] !== undefined) {
      throw blobError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.');
    }
    blocks.push({
      kind: match[1] as 'Latest' | 'Committed' | 'Uncommitted',
      id: unescapeXml(match[2] ?? ''),
    });
  }
  return blocks;
}

function decodeBlockId(id: string): Buffer {
  const decoded = Buffer.from(id, 'base64');
  if (id === '' || decoded.toString('base64') !== id || decoded.length > 64) {
    throw blobError(
      400,
      'InvalidQueryParameterValue',
      'Value for one of the query parameters specified in the request URI is invalid.',
    );
  }
  return decoded;
}

function sasSignature(secret: Buffer, blobPath: string, params: URLSearchParams): string {
  const signed = ['sp', 'st', 'se', 'sv', 'sr'].map((k) => params.get(k) ?? '');
  return createHmac('sha256', secret)
    .update([...signed, blobPath].join('\n'))
    .digest('base64');
}

function checkSas(url: URL, permission: 'r' | 'w', secret: Buffer): void {
  const sig = url.searchParams.get('sig');
  const denied = (detail: string) =>
    blobError(
      403,
      'AuthenticationFailed',
      `Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. ${detail}`,
    );
  if (!sig) throw denied('The request carries no signature.');
  const expected = Buffer.from(sasSignature(secret, url.pathname, url.searchParams));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw denied('Signature did not match.');
  }
  const now = Date.now();
  if (
    now > Date.parse(url.searchParams.get('se') ?? '') ||
    now < Date.parse(url.searchParams.get('st') ?? '')
  ) {
    throw denied('Signed expiry time has passed.');
  }
  if (!(url.searchParams.get('sp') ?? '').includes(permission)) {
    throw blobError(
      403,
      'AuthorizationPermissionMismatch',
      'This request is not authorized to perform this operation using this permission.',
    );
  }
}

function signJwt(payload: object, secret: Buffer): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** The Bearer JWT: signature, lifetime and the `Actions.Results:<run>:<job>` scope. */
function verifyToken(authorization: string | undefined, secret: Buffer): Scope {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) throw twirpError('unauthenticated', 'a Bearer runtime token is required');
  const [header, payload, signature] = token.split('.');
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  if (
    signature === undefined ||
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  ) {
    throw twirpError('unauthenticated', 'the runtime token is not valid');
  }
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as {
    exp?: number;
    scp?: string;
  };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) {
    throw twirpError('unauthenticated', 'the runtime token has expired');
  }
  for (const scope of (claims.scp ?? '').split(' ')) {
    const [name, run, job, ...rest] = scope.split(':');
    if (name === 'Actions.Results' && run && job && rest.length === 0)
      return { runId: run, jobId: job };
  }
  throw twirpError('permission_denied', 'the runtime token has no Actions.Results scope');
}

function readBody(
  req: IncomingMessage,
  limit: number,
  tooLarge: () => ServiceError,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string | Buffer,
): void {
  const bytes = body === undefined ? undefined : Buffer.from(body);
  res.writeHead(status, STATUS_CODES[status], {
    ...(headers['content-length'] === undefined
      ? { 'content-length': String(bytes?.length ?? 0) }
      : {}),
    ...headers,
  });
  res.end(bytes);
}

function storageHeaders(): Record<string, string> {
  const now = new Date().toUTCString();
  return {
    'x-ms-request-id': randomUUID(),
    'x-ms-version': STORAGE_VERSION,
    'x-ms-request-server-encrypted': 'true',
    date: now,
    'last-modified': now,
  };
}

const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');
const etagOf = (data: Buffer) =>
  `"0x${createHash('sha256').update(data).digest('hex').slice(0, 15).toUpperCase()}"`;
const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
