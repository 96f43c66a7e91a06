import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decoderFor } from '../../src/http.js';

/**
 * `Content-Encoding: deflate` as servers send it: zlib's format or raw deflate, in any
 * chunking, with bytes after the data (a trailing CRLF) that end nothing early.
 */
async function decoded(chunks: Buffer[]): Promise<string> {
  const decoder = decoderFor('deflate');
  if (decoder === undefined) throw new Error('no decoder for deflate');
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), decoder, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out).toString('utf8');
}

const text = 'hello, '.repeat(1000);
const wrapped = zlib.deflateSync(text);
const raw = zlib.deflateRawSync(text);
const crlf = Buffer.from('\r\n');

describe('the deflate decoder', () => {
  it.each([
    ['zlib', wrapped],
    ['raw', raw],
  ])('reads %s deflate whole, and in pieces of one byte', async (_, data) => {
    expect(await decoded([data])).toBe(text);
    expect(await decoded([...data].map((byte) => Buffer.from([byte])))).toBe(text);
  });

  it.each([
    ['zlib, in the same chunk', [Buffer.concat([wrapped, crlf])]],
    ['zlib, in the next chunk', [wrapped, crlf]],
    ['raw, in the same chunk', [Buffer.concat([raw, crlf])]],
    ['raw, in the next chunk', [raw, crlf]],
  ])('ends with the data when bytes follow it (%s)', async (_, chunks) => {
    expect(await decoded(chunks)).toBe(text);
  });

  it('fails a body that is no deflate data', async () => {
    await expect(decoded([Buffer.from('not deflate at all')])).rejects.toThrow();
  });
});
