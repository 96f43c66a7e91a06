import { describe, expect, it } from 'vitest';
import { LinkScrubber, linkParts, Redactor } from '../../src/redact.js';

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

  it('leaves page addresses readable when the storage is served under the docs domain', () => {
    const redactor = new Redactor();
    const shared = 'https://docs.example.com/exports/se_1.tar.gz?X-Amz-Signature=0123456789abcdef';
    for (const part of linkParts(shared, api, 'docs.example.com')) redactor.add(part);
    expect(redactor.redact('Page https://docs.example.com/guides/start.html is ready.')).toBe(
      'Page https://docs.example.com/guides/start.html is ready.',
    );
    expect(redactor.redact(`Bundle link ${shared}`)).toBe('Bundle link ***');
    expect(redactor.redact('GET https://docs.example.com/exports/se_1.tar.gz → 403')).toBe(
      'GET *** → 403',
    );
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

  it('hides the signed query and its values, which an error page may echo, but not the flags', () => {
    const sas =
      'https://acct.blob.core.windows.net/exports/docs.example.com.tar.gz?sv=2022-11-02&sr=b&sp=r&se=2026-01-15T13:00:00Z&name=docs.example.com.tar.gz&sig=Zk9vQmFyQmF6cXV4UXV1eFNlY3JldA%3D%3D';
    const parts = linkParts(sas, api);
    expect(parts).toContain(
      'sv=2022-11-02&sr=b&sp=r&se=2026-01-15T13:00:00Z&name=docs.example.com.tar.gz&sig=Zk9vQmFyQmF6cXV4UXV1eFNlY3JldA%3D%3D',
    );
    expect(parts).toContain('Zk9vQmFyQmF6cXV4UXV1eFNlY3JldA%3D%3D');
    expect(parts).toContain('Zk9vQmFyQmF6cXV4UXV1eFNlY3JldA==');
    // Dates are no secret, and masked they would hide every such date in the job's log.
    expect(parts).not.toContain('2022-11-02');
    expect(parts).not.toContain('2026-01-15T13:00:00Z');
    // Flags are too short to tell from words; the path's own name is no secret.
    expect(parts).not.toContain('b');
    expect(parts).not.toContain('docs.example.com.tar.gz');
    // Longest first, as the Redactor needs them.
    expect(parts).toEqual([...parts].sort((a, b) => b.length - a.length));
    const redactor = new Redactor();
    for (const part of parts) redactor.add(part);
    expect(
      redactor.redact(
        'Not Found: /exports/docs.example.com.tar.gz?sv=2022-11-02&sr=b&sp=r&se=2026-01-15T13:00:00Z&name=docs.example.com.tar.gz&sig=Zk9vQmFyQmF6cXV4UXV1eFNlY3JldA%3D%3D',
      ),
    ).toBe('Not Found: /exports/docs.example.com.tar.gz?***');
  });

  it('masks an S3 signature and credential, not the algorithm or the date', () => {
    const parts = linkParts(
      'https://s3.example.net/b/a.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260115%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260115T120000Z&X-Amz-Expires=3600&X-Amz-Signature=a3f1c0ffee5eed0ddba11c0defacedbeadfeedfacecafebabe5ca1ab1e7e1e7e',
      api,
    );
    expect(parts).toContain('a3f1c0ffee5eed0ddba11c0defacedbeadfeedfacecafebabe5ca1ab1e7e1e7e');
    expect(parts).toContain('AKIAEXAMPLE/20260115/us-east-1/s3/aws4_request');
    expect(parts).not.toContain('AWS4-HMAC-SHA256');
    expect(parts).not.toContain('20260115T120000Z');
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

describe('LinkScrubber', () => {
  const SIG = 'a3f1c0ffee5eed0ddba11c0defacedbeadfeedfacecafebabe5ca1ab1e7e1e7e';
  const B64 = 'Zk9v+QmFy/QmF6cXV4UXV1eFNlY3JldA==';
  const scrubber = new LinkScrubber();
  scrubber.add(
    `https://s.example.net/x/a.tar.gz?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Signature=${SIG}`,
  );
  scrubber.add(`https://s.example.net/y/a.tar.gz?sr=b&sig=${encodeURIComponent(B64)}`);

  it('replaces a query quoted whole, and each value quoted apart, with …', () => {
    expect(
      scrubber.scrub(
        `Not Found: /x/a.tar.gz?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Signature=${SIG}`,
      ),
    ).toBe('Not Found: /x/a.tar.gz?…');
    expect(scrubber.scrub(`<SignatureProvided>${SIG}</SignatureProvided>`)).toBe(
      '<SignatureProvided>…</SignatureProvided>',
    );
    expect(scrubber.scrub('Expires=3600 at 20260101T000000Z')).toBe('Expires=3600 at …');
  });

  it('knows a value decoded, escaped again in either case, or with + read as a space', () => {
    for (const form of [
      B64,
      encodeURIComponent(B64),
      encodeURIComponent(B64).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      B64.replace('+', ' '),
    ]) {
      expect(scrubber.scrub(`sig=${form}.`)).toBe('sig=….');
    }
  });

  it('removes a copy cut short: a run of 12 characters anywhere, 4 at the end of a cut text', () => {
    expect(scrubber.scrub(`Signature=${SIG.slice(0, 30)} (truncated) at noon`)).toBe(
      'Signature=… (truncated) at noon',
    );
    expect(scrubber.scrub(`id ${SIG.slice(20, 33)} seen`)).toBe('id … seen');
    // A summary cut with … after a few characters of the signature.
    expect(scrubber.scrub(`X-Amz-Signature=${SIG.slice(0, 6)}…`)).toBe('X-Amz-Signature=…');
    expect(scrubber.scrub(`X-Amz-Signature=${SIG.slice(0, 6)}`, true)).toBe('X-Amz-Signature=…');
    // Not cut: the end of a text is left alone.
    expect(scrubber.scrub(`blob a3f1c0`)).toBe('blob a3f1c0');
  });

  it('leaves text that quotes none of it, and flags shorter than 8 characters, as they are', () => {
    const text = 'Not Found: /x/a.tar.gz?X-Amz-Expires=3600 (sr=b)';
    expect(scrubber.scrub(text)).toBe(text);
    expect(new LinkScrubber().scrub(`sig ${SIG}`)).toBe(`sig ${SIG}`);
  });
});
