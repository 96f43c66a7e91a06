import { describe, expect, it } from 'vitest';
import { linkParts, Redactor } from '../../src/redact.js';

const KEY = 'mint_0123456789abcdefghijklmnop';

describe('Redactor', () => {
  const redactor = new Redactor();
  redactor.add(KEY);

  it('scrubs the key wherever it appears', () => {
    expect(redactor.redact(`key=${KEY}; again ${KEY}`)).toBe('key=***; again ***');
  });

  it('scrubs a credential after Bearer, even one it was not given', () => {
    expect(redactor.redact('Authorization: Bearer mint_someoneelseskey123')).toBe(
      'Authorization: Bearer ***',
    );
  });

  it.each([
    'Send Authorization: Bearer mint_<key>',
    'Authorization: Bearer mint_…',
    'Authorization: Bearer <token>',
    'Authorization: Bearer $ADMIN_API_KEY',
  ])('leaves a placeholder alone: %s', (hint) => {
    expect(redactor.redact(hint)).toBe(hint);
  });

  it('scrubs a cut copy of the key, at either end of a line', () => {
    expect(redactor.redact(`Prompt: rotate ${KEY.slice(0, 16)}…`)).toBe('Prompt: rotate ***…');
    expect(redactor.redact(`…${KEY.slice(12)} was echoed`)).toBe('…*** was echoed');
  });

  it('scrubs a masked link whole, but not the pieces it shares with other text', () => {
    const withLink = new Redactor();
    const link = 'https://store.example.com/exports/site.tar.gz?X-Amz-Signature=0123456789abcdef';
    withLink.add(link);
    expect(withLink.redact(`got ${link}`)).toBe('got ***');
    expect(withLink.redact('from https://store.example.com/exports/site.tar.gz?…')).toBe(
      'from https://store.example.com/exports/site.tar.gz?…',
    );
  });

  it('leaves short runs that happen to match the key', () => {
    expect(redactor.redact('mint_0123 and abcdefg')).toBe('mint_0123 and abcdefg');
  });
});

describe('linkParts', () => {
  const link =
    'https://exports.s3.example.net:8443/bucket/se_1/docs.example.com.tar.gz?X-Amz-Signature=abc';
  const api = new URL('https://api.example.com/');

  it('hides every form in which a line can quote where a masked link points', () => {
    const redactor = new Redactor();
    for (const part of linkParts(link, api)) redactor.add(part);
    const lines = [
      `Bundle link ${link}`,
      'Could not download the bundle from https://exports.s3.example.net:8443/bucket/se_1/docs.example.com.tar.gz?…: refused',
      'GET https://exports.s3.example.net:8443/bucket/se_1/docs.example.com.tar.gz → 200',
      'the TLS handshake with exports.s3.example.net:8443 failed (EPROTO)',
      'the host name exports.s3.example.net does not resolve from this runner (ENOTFOUND)',
    ].map((line) => redactor.redact(line));
    expect(lines.join('\n')).not.toMatch(/exports\.s3|bucket|Signature/);
    expect(lines[0]).toBe('Bundle link ***');
    expect(lines[1]).toBe('Could not download the bundle from ***?…: refused');
  });

  it("leaves the paths the log names readable, though one ends in the link's file name", () => {
    const redactor = new Redactor();
    for (const part of linkParts('https://bucket.s3.example.net/docs.example.com.tar.gz?s=1', api))
      redactor.add(part);
    for (const part of linkParts('https://cdn.example.net/download?s=1', api)) redactor.add(part);
    for (const line of [
      'Archive saved as /home/runner/work/out/docs.example.com.tar.gz.',
      'Extracted 12 files into /home/runner/download/site.',
    ]) {
      expect(redactor.redact(line)).toBe(line);
    }
  });

  it("leaves the API's own host readable: the workflow names it", () => {
    const parts = linkParts(
      'http://127.0.0.1:9000/exports/a.tar.gz?sig=1',
      new URL('http://127.0.0.1:4010'),
    );
    expect(parts).not.toContain('127.0.0.1');
    expect(parts).toContain('127.0.0.1:9000');
    expect(linkParts('https://api.example.com/bundles/a.tar.gz?sig=1', api)).toEqual([
      'https://api.example.com/bundles/a.tar.gz?sig=1',
      'https://api.example.com/bundles/a.tar.gz',
    ]);
  });
});
