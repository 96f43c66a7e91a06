/**
 * A storage whose error page echoes the request target (path and signed query), through
 * the GitHub adapter and the CLI: neither the error line, the debug lines nor the summary
 * carry the link's signature, with `mask-bundle-url` on (after the runner masked what it
 * was asked to) or off.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { githubReporter, reportOutcome, type RunnerCommands } from '../../src/github.js';
import { execute } from '../../src/main.js';
import { Redactor } from '../../src/redact.js';

const KEY = 'mint_signedQueryEcho0123456789';
const SAS_SIG = 'Zk9vQmFyQmF6cXV4UXV1eFNlY3JldFNpZ25hdHVyZQ%3D';
const SAS = `sv=2022-11-02&se=2026-12-01T00%3A00%3A00Z&sr=b&sp=r&sig=${SAS_SIG}`;
const S3_SIG = 'a3f1c0ffee5eed0ddba11c0defacedbeadfeedfacecafebabe5ca1ab1e7e1e7e';
const S3 = `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${S3_SIG}`;

type Echo = 'text' | 'json' | 'xml';
/** What the storage answers, and which link the API hands out, for the next run. */
let echo: Echo = 'text';
let query = SAS;

let storage: http.Server;
let api: http.Server;
let baseUrl = '';
let storageOrigin = '';
beforeAll(async () => {
  storage = http.createServer((req, res) => {
    req.resume();
    const target = req.url ?? '';
    if (echo === 'json') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `Invalid request ${target}` }));
    } else if (echo === 'xml') {
      // Long enough that the summary's 300-character cut falls 30 characters into
      // X-Amz-Signature (the summary reads `AccessDenied: Denied …`).
      const escaped = target.replace(/&/g, '&amp;');
      const pad = 'x'.repeat(Math.max(0, 269 - 21 - escaped.indexOf(S3_SIG)));
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(`<Error><Code>AccessDenied</Code><Message>Denied ${pad}${escaped}</Message></Error>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Not Found: ${target}`);
    }
  });
  await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
  storageOrigin = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
  const job = { jobId: 'se_1', status: 'completed', progress: 100, pageCount: 1, error: null };
  api = http.createServer((req, res) => {
    req.resume();
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && req.url === '/v1/static-export/jobs') return send(202, job);
    if (req.url === '/v1/static-export/jobs/se_1') return send(200, job);
    if (req.url === '/v1/static-export/jobs/se_1/bundle') {
      return send(200, {
        jobId: 'se_1',
        bundleUrl: `${storageOrigin}/exports/docs.example.com.tar.gz?${query}`,
        sizeBytes: 100,
        expiresAt: new Date(Date.now() + 3600e3).toISOString(),
      });
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await new Promise((resolve) => storage.close(resolve));
});

/** Neither the signature, decoded or not, nor 24 characters of it in a row. */
function expectNoSignature(text: string, signature: string): void {
  for (const form of [signature, decodeURIComponent(signature)]) {
    for (let start = 0; start + 24 <= form.length; start += 1) {
      expect(text).not.toContain(form.slice(start, start + 24));
    }
  }
}

/** One run through the GitHub adapter; the log as the runner prints it, secrets masked. */
async function runAction(mask: boolean) {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'signed-query-echo-'));
  const secrets: string[] = [];
  const log: string[] = [];
  let summary = '';
  const masked = (line: string) => secrets.reduce((text, s) => text.split(s).join('***'), line);
  const commands: RunnerCommands = {
    info: (m) => log.push(masked(m)),
    notice: (m) => log.push(`::notice::${masked(m)}`),
    warning: (m) => log.push(`::warning::${masked(m)}`),
    error: (m) => log.push(`::error::${masked(m)}`),
    debug: (m) => log.push(`::debug::${masked(m)}`),
    group: async (name, fn) => {
      log.push(`::group::${masked(name)}`);
      return fn();
    },
    setOutput: () => undefined,
    setSecret: (s) => secrets.push(s),
    writeSummary: async (markdown) => {
      summary = masked(markdown);
    },
  };
  const redactor = new Redactor();
  try {
    const outcome = await execute(
      {
        'api-key': KEY,
        domain: 'docs.example.com',
        'base-url': baseUrl,
        'mask-bundle-url': String(mask),
        path: 'site',
      },
      { workspace, tempDir: workspace },
      githubReporter(redactor, commands, workspace),
      { redactor },
    );
    await reportOutcome(outcome, redactor, commands, workspace);
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
  return { log: log.join('\n'), summary, secrets };
}

describe('the GitHub adapter', () => {
  it.each([
    ['text', SAS, SAS_SIG, 'HTTP 404: Not Found: /exports/docs.example.com.tar.gz?…)'],
    ['json', S3, S3_SIG, 'HTTP 400: Invalid request /exports/docs.example.com.tar.gz?…)'],
    ['xml', S3, S3_SIG, 'HTTP 403: AccessDenied: Denied xx/exports/docs.example.com.tar.gz?…)'],
  ] as const)(
    'a %s error that echoes the link: no signature in the log, masked or not',
    async (kind, link, signature, said) => {
      echo = kind;
      query = link;
      for (const mask of [false, true]) {
        const run = await runAction(mask);
        expectNoSignature(run.log, signature);
        expectNoSignature(run.summary, signature);
        const error = run.log.split('\n').find((line) => line.startsWith('::error::')) ?? '';
        expect(error).toContain(said);
        if (mask) expect(run.secrets).toContain(signature);
        else expect(run.secrets).not.toContain(signature);
      }
    },
  );
});

describe('the CLI', () => {
  it('an error page that echoes the link: no signature on stderr or stdout', async () => {
    echo = 'text';
    query = SAS;
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'signed-query-echo-cli-'));
    let out = '';
    const stream = {
      isTTY: false,
      write: (chunk: string | Uint8Array) => {
        out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    try {
      const code = await runCli(
        [
          'export',
          '--domain',
          'docs.example.com',
          '--base-url',
          baseUrl,
          '--path',
          path.join(cwd, 'site'),
          '--verbose',
        ],
        {
          env: { PATH: process.env.PATH ?? '', HOME: cwd, ADMIN_API_KEY: KEY, NO_COLOR: '1' },
          stdout: stream,
          stderr: stream,
          cwd,
          readStdin: async () => '',
        },
      );
      expect(code).toBe(1);
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
    expectNoSignature(out, SAS_SIG);
    expect(out).toContain(
      'The storage refused the bundle link (HTTP 404: Not Found: /exports/docs.example.com.tar.gz?…).',
    );
  });
});
