import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, type Peer, startPeer } from './processes.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRISM = path.resolve(HERE, '..', '..', '..', 'node_modules', '.bin', 'prism');
export const ADMIN_API_SPEC = path.resolve(HERE, '..', 'openapi', 'admin-api.yaml');

export interface Prism extends Peer {
  baseUrl: string;
}

/**
 * Prism serving the project's OpenAPI description of the published routes: it checks
 * each request against the description (422 for a body it does not allow) and answers
 * with the described examples.
 */
export async function startPrism(): Promise<Prism> {
  const port = await freePort();
  const peer = await startPeer(
    PRISM,
    ['mock', '--host', '127.0.0.1', '--port', String(port), '--errors', ADMIN_API_SPEC],
    { host: '127.0.0.1', port },
  );
  return { ...peer, baseUrl: `http://127.0.0.1:${port}` };
}
