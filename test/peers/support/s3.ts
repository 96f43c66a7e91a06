import S3rver from '@20minutes/s3rver';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { freePort, scratch } from './processes.js';

/** s3rver's built-in account: the keys it checks SigV4 signatures against. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const BUCKET = 'static-exports';

export interface ObjectStore {
  endpoint: string;
  /** Stores `body` under `key` (replacing what was there). */
  put(key: string, body: Buffer, contentEncoding?: string): Promise<void>;
  remove(key: string): Promise<void>;
  /**
   * A presigned GET link made by the AWS SDK, valid for `expiresInSec` from `signingDate`
   * (now), for the host of `endpoint` (a proxy in front of the store passes it on).
   */
  presign(
    key: string,
    expiresInSec: number,
    options?: { endpoint?: string; signingDate?: Date },
  ): Promise<string>;
  /** Stops answering (connections are refused) until `resume`; the objects stay. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * s3rver, an S3-compatible server that checks SigV4 signatures and link expiry (by its
 * own clock), on loopback with its files in a temp dir.
 */
export async function startObjectStore(host = '127.0.0.1'): Promise<ObjectStore> {
  const port = await freePort(host);
  const directory = await scratch('s3rver');
  const serve = async () => {
    const server = new S3rver({
      address: host,
      port,
      silent: true,
      // Path-style only: a bracketed IPv6 host must not read as a bucket name.
      vhostBuckets: false,
      directory,
      configureBuckets: [{ name: BUCKET }],
    });
    await server.run();
    return server;
  };
  let server: S3rver | undefined = await serve();
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const clientFor = (at: string) =>
    new S3Client({
      region: 'us-east-1',
      endpoint: at,
      forcePathStyle: true,
      credentials: CREDENTIALS,
      // s3rver predates the SDK's default trailing checksums on uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const client = clientFor(endpoint);
  return {
    endpoint,
    async put(key, body, contentEncoding) {
      await client.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: key,
          Body: body,
          ContentType: 'application/gzip',
          ...(contentEncoding ? { ContentEncoding: contentEncoding } : {}),
        }),
      );
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
    },
    async presign(key, expiresInSec, options = {}) {
      const signer = options.endpoint ? clientFor(options.endpoint) : client;
      try {
        return await getSignedUrl(signer, new GetObjectCommand({ Bucket: BUCKET, Key: key }), {
          expiresIn: expiresInSec,
          ...(options.signingDate ? { signingDate: options.signingDate } : {}),
        });
      } finally {
        if (signer !== client) signer.destroy();
      }
    },
    async pause() {
      await server?.close();
      server = undefined;
    },
    async resume() {
      server ??= await serve();
    },
    async stop() {
      client.destroy();
      await server?.close();
      server = undefined;
    },
  };
}
