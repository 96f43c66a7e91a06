import type { Dispatcher } from 'undici';

type Body = Dispatcher.ResponseData['body'];
type Headers = Dispatcher.ResponseData['headers'];

/** The first value of a response header. */
export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads at most `limit` bytes of a body as text and drops the rest: error pages and API
 * answers are small, and an untrusted server must not make the client buffer gigabytes.
 */
export async function readText(
  body: Body,
  limit: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const data of body) {
    const chunk = data as Buffer;
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** `ECONNRESET other side closed`: the codes and message of a network failure. */
export function describeNetworkError(err: unknown): string {
  const error = err as {
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const parts = [error?.code, error?.cause?.code, error?.message];
  return [...new Set(parts.filter(Boolean))].join(' ') || String(err);
}
