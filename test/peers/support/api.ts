import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const KEY = 'mint_peerTestKey0123456789';
export const JOB_ID = 'se_peer0000000001';

export interface BundleAnswer {
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
}

export interface ExportApi {
  baseUrl: string;
  /** `METHOD path` of every request, in order. */
  requests: string[];
  stop(): Promise<void>;
}

/**
 * The published export routes, answering as the vendor documents them, with a job that
 * is already completed and a bundle link from `bundle` (a presigned link of a real
 * store): the peers under test are what lies between the runner and that link.
 */
export async function startExportApi(
  bundle: () => Promise<BundleAnswer>,
  host = '127.0.0.1',
  /** The first this many requests get no answer at all (a hung backend behind a gateway). */
  { hangFirst = 0 } = {},
): Promise<ExportApi> {
  const requests: string[] = [];
  const job = {
    jobId: JOB_ID,
    status: 'completed',
    progress: 100,
    pageCount: 3,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    error: null,
  };
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    if (requests.length <= hangFirst) return;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${KEY}`) return send(401, { error: 'Unauthorized' });
    if (req.method === 'POST' && req.url === '/v1/static-export/jobs') return send(202, job);
    if (req.method === 'GET' && req.url === `/v1/static-export/jobs/${JOB_ID}`)
      return send(200, job);
    if (req.method === 'POST' && req.url === `/v1/static-export/jobs/${JOB_ID}/bundle`) {
      bundle().then(
        (answer) => send(200, { jobId: JOB_ID, ...answer }),
        (err: unknown) => send(500, { error: String(err) }),
      );
      return;
    }
    send(404, { error: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
