import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Only the calls @actions/artifact makes for one upload, on loopback: CreateArtifact and
 * FinalizeArtifact (Twirp JSON) and the block blob upload its signed URL points to. Enough
 * to run the real library end to end; nothing GitHub's service checks beyond that.
 */

const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/';

/** What @actions/artifact throws when another job of the run already uploaded the name. */
export const CONFLICT_ERROR =
  'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run';
/** What @actions/artifact throws when the service says the storage quota is used up. */
export const QUOTA_ERROR =
  'Failed to CreateArtifact: Artifact storage quota has been hit. Unable to upload any new artifacts.\nMore info on storage limits: https://docs.github.com/en/billing/managing-billing-for-github-actions/about-billing-for-github-actions#calculating-minute-and-storage-spending';

export interface UploadedArtifact {
  id: string;
  name: string;
  /** The committed blob: the zip the library built. */
  zip: Buffer;
}

export interface ArtifactService {
  /** ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN, as the runner sets them. */
  env: Record<string, string>;
  artifacts: UploadedArtifact[];
  /** Method or blob operation of every request, in order. */
  calls: string[];
  stop(): Promise<void>;
}

/** An unsigned JWT with the scope the library reads the run and job ids from. */
function runtimeToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ scp: 'Actions.Results:run-1:job-1' })}.`;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface ArtifactServiceOptions {
  /** Blob uploads are read but never answered, as an upload of a large site goes on for minutes. */
  stallUploads?: boolean;
}

export async function startArtifactService(
  options: ArtifactServiceOptions = {},
): Promise<ArtifactService> {
  const artifacts: UploadedArtifact[] = [];
  const calls: string[] = [];
  const blocks = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const data = await body(req);
    const json = (status: number, value: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname.startsWith(TWIRP)) {
      const method = url.pathname.slice(TWIRP.length);
      calls.push(method);
      const request = JSON.parse(data.toString()) as { name: string };
      if (method === 'CreateArtifact') {
        if (request.name.includes('quota'))
          return json(403, { code: 'permission_denied', msg: 'insufficient usage' });
        if (artifacts.some((a) => a.name === request.name))
          return json(409, {
            code: 'already_exists',
            msg: 'an artifact with this name already exists on the workflow run',
          });
        artifacts.push({
          id: String(artifacts.length + 1),
          name: request.name,
          zip: Buffer.alloc(0),
        });
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        return json(200, {
          ok: true,
          signed_upload_url: `${origin}/account/container/${encodeURIComponent(request.name)}.zip?sig=x`,
        });
      }
      const artifact = artifacts.find((a) => a.name === request.name);
      if (method === 'FinalizeArtifact' && artifact)
        return json(200, { ok: true, artifact_id: artifact.id });
      return json(404, { code: 'not_found', msg: `${method}: nothing to do` });
    }
    // The block blob upload: stage blocks, then commit them in the listed order.
    const blob = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
    const headers = { etag: '"0x1"', 'last-modified': new Date(0).toUTCString() };
    const comp = url.searchParams.get('comp');
    calls.push(`blob ${comp ?? 'put'}`);
    if (options.stallUploads) return;
    if (comp === 'block') {
      blocks.set(`${blob}/${url.searchParams.get('blockid')}`, data);
      return res.writeHead(201, headers).end();
    }
    const ids =
      comp === 'blocklist'
        ? [...data.toString().matchAll(/<(?:Latest|Uncommitted)>([^<]+)</g)].map((m) => m[1])
        : [];
    const artifact = artifacts.find((a) => `${a.name}.zip` === blob);
    if (artifact)
      artifact.zip =
        comp === 'blocklist'
          ? Buffer.concat(ids.map((id) => blocks.get(`${blob}/${id}`) ?? Buffer.alloc(0)))
          : data;
    return res.writeHead(201, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: { ACTIONS_RESULTS_URL: url, ACTIONS_RUNTIME_TOKEN: runtimeToken() },
    artifacts,
    calls,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
