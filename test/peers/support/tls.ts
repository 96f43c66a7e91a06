import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from './processes.js';

export interface PrivateCa {
  /** The CA's certificate (what NODE_EXTRA_CA_CERTS would name). */
  caFile: string;
  /** The server's certificate alone, and followed by the CA's (a full chain). */
  certFile: string;
  chainFile: string;
  keyFile: string;
}

/**
 * A private CA and a server certificate for 127.0.0.1, ::1 and localhost, made with
 * openssl in `dir` for this test run only.
 */
export async function createPrivateCa(dir: string): Promise<PrivateCa> {
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Static Export Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await run('openssl', [
    'req',
    ...ec,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  ]);
  await fs.writeFile(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ]);
  const chain =
    (await fs.readFile(file('server.pem'), 'utf8')) + (await fs.readFile(file('ca.pem'), 'utf8'));
  await fs.writeFile(file('chain.pem'), chain);
  return {
    caFile: file('ca.pem'),
    certFile: file('server.pem'),
    chainFile: file('chain.pem'),
    keyFile: file('server.key'),
  };
}
