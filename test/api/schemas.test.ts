import { describe, expect, it } from 'vitest';
import {
  agentJobAnswer,
  agentJobSchema,
  bundleLinkSchema,
  exportJobSchema,
} from '../../src/api/schemas.js';

/** The documented job object, as the public API reference shows it. */
const documentedJob = {
  jobId: 'se_3f9a2c1b8e7d4a06',
  status: 'running',
  progress: 40,
  pageCount: 12,
  createdAt: '2026-01-15T12:00:00Z',
  updatedAt: '2026-01-15T12:00:30Z',
  error: null,
};

describe('export job answers', () => {
  it('the documented job object reads as typed values', () => {
    expect(exportJobSchema.parse(documentedJob)).toEqual({
      jobId: 'se_3f9a2c1b8e7d4a06',
      status: 'running',
      progress: 40,
      pageCount: 12,
      createdAt: new Date('2026-01-15T12:00:00Z'),
      updatedAt: new Date('2026-01-15T12:00:30Z'),
    });
  });

  it.each([
    ['a status nobody documented', { status: 'waiting_for_capacity' }, 'waiting_for_capacity'],
    ['a status in capitals', { status: ' COMPLETED ' }, 'completed'],
    ['no status at all (a start answer with only jobId)', { status: undefined }, 'queued'],
  ])('%s is kept so the poller can log it and go on', (_what, fields, status) => {
    expect(exportJobSchema.parse({ ...documentedJob, ...fields }).status).toBe(status);
  });

  it.each([
    ['a number', 42.5, 42.5],
    ['a number sent as a string', '42.5', 42.5],
    ['null', null, undefined],
    ['junk text', 'almost done', undefined],
    ['above 100', 130, 100],
    ['below 0', -3, 0],
  ])('progress given as %s reads as %s', (_what, progress, expected) => {
    expect(exportJobSchema.parse({ ...documentedJob, progress }).progress).toBe(expected);
  });

  it.each([
    ['a number sent as a string', '12', 12],
    ['a fraction', 12.9, 12],
    ['negative', -1, undefined],
    ['null', null, undefined],
    ['missing', undefined, undefined],
  ])('pageCount given as %s reads as %s', (_what, pageCount, expected) => {
    expect(exportJobSchema.parse({ ...documentedJob, pageCount }).pageCount).toBe(expected);
  });

  it.each([
    ['a number sent as a string', '2048', 2048],
    ['negative', -5, undefined],
    ['a fraction', 20.5, undefined],
    ['null', null, undefined],
  ])(
    'sizeBytes given as %s reads as %s, on a job and on a bundle link',
    (_what, sizeBytes, expected) => {
      expect(exportJobSchema.parse({ ...documentedJob, sizeBytes }).sizeBytes).toBe(expected);
      const link = { bundleUrl: 'https://bucket.example.com/se_1.tar.gz', sizeBytes };
      expect(bundleLinkSchema.parse(link).sizeBytes).toBe(expected);
    },
  );

  it('a status of null is none stated, as a missing one: the job is followed', () => {
    expect(exportJobSchema.parse({ ...documentedJob, status: null }).status).toBe('queued');
  });

  it('a job from the pending API without progress or pageCount, with its link inline, is accepted', () => {
    const job = exportJobSchema.parse({
      jobId: 'se_1',
      status: 'completed',
      bundleUrl: 'https://bucket.s3.amazonaws.com/exports/se_1.tar.gz?X-Amz-Signature=abc',
      sizeBytes: '2048',
      expiresAt: '2026-01-15T13:00:00.000Z',
    });
    expect(job).toMatchObject({ sizeBytes: 2048, expiresAt: new Date('2026-01-15T13:00:00Z') });
    expect(job.progress).toBeUndefined();
    expect(job.bundleUrl).toMatch(/^https:/);
  });

  it('a failed job carries its error text for the user, and extra fields are dropped', () => {
    const job = exportJobSchema.parse({
      ...documentedJob,
      status: 'failed',
      error: 'Build failed: page /api is invalid',
      internal: { shard: 4 },
    });
    expect(job.error).toBe('Build failed: page /api is invalid');
    expect(job).not.toHaveProperty('internal');
  });

  it.each([
    ['ISO 8601 text', '2026-01-15T12:00:00Z', Date.UTC(2026, 0, 15, 12)],
    ['epoch seconds', 1_768_478_400, Date.UTC(2026, 0, 15, 12)],
    ['epoch milliseconds', 1_768_478_400_000, Date.UTC(2026, 0, 15, 12)],
    ['epoch seconds as text', '1768478400', Date.UTC(2026, 0, 15, 12)],
    ['junk', 'yesterday', undefined],
  ])('a timestamp given as %s is understood', (_what, createdAt, expected) => {
    expect(exportJobSchema.parse({ ...documentedJob, createdAt }).createdAt?.getTime()).toBe(
      expected,
    );
  });

  it('server text with line breaks or escape sequences reads as one line, and such a link is ignored', () => {
    const job = exportJobSchema.parse({
      ...documentedJob,
      status: 'running\n::error::forged',
      error: 'boom\r\n::warning::forged\u001b[31m',
      bundleUrl: 'https://store.example.com/b.tar.gz\n::error::forged',
    });
    expect(job.status).toBe('running ::error::forged');
    expect(job.error).toBe('boom ::warning::forged [31m');
    expect(job.bundleUrl).toBeUndefined();
  });

  it('a numeric job id is read as text', () => {
    expect(exportJobSchema.parse({ jobId: 1234 }).jobId).toBe('1234');
  });

  it.each([
    '',
    'se_1/../../admin',
    '..',
    '.',
    '%2e%2e',
    'a%2Fb',
    'se\\1',
    'se_1\u0000',
    'x'.repeat(1025),
  ])('the job id %j is refused because it would change the URL path', (jobId) => {
    const result = exportJobSchema.safeParse({ ...documentedJob, jobId });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['jobId']);
  });

  it.each(['.hidden', '-rf', 'se 1', 'se_1?x=1', 'se_1#frag', 'job:42', 'é', 'x'.repeat(129)])(
    'the job id %j is accepted: the vendor allows any string, and it is sent encoded',
    (jobId) => {
      expect(exportJobSchema.parse({ ...documentedJob, jobId }).jobId).toBe(jobId);
    },
  );

  it('an inline bundle link that is not http(s) is ignored rather than followed', () => {
    const job = exportJobSchema.parse({ ...documentedJob, bundleUrl: 'file:///etc/passwd' });
    expect(job.bundleUrl).toBeUndefined();
  });
});

describe('bundle link answers', () => {
  it('the documented answer reads as typed values', () => {
    expect(
      bundleLinkSchema.parse({
        jobId: 'se_1',
        bundleUrl: 'https://bucket.s3.amazonaws.com/se_1.tar.gz?X-Amz-Expires=3600',
        sizeBytes: 1024,
        expiresAt: '2026-01-15T13:00:00Z',
        region: 'us-east-1',
      }),
    ).toEqual({
      jobId: 'se_1',
      bundleUrl: 'https://bucket.s3.amazonaws.com/se_1.tar.gz?X-Amz-Expires=3600',
      sizeBytes: 1024,
      expiresAt: new Date('2026-01-15T13:00:00Z'),
    });
  });

  it('a link with only bundleUrl is enough', () => {
    expect(bundleLinkSchema.parse({ bundleUrl: 'https://x.example/b.zip' })).toEqual({
      bundleUrl: 'https://x.example/b.zip',
    });
  });

  it('a link is kept as the URL it parses to: a space or markup in it is percent-encoded', () => {
    const parsed = (bundleUrl: string) => bundleLinkSchema.parse({ bundleUrl }).bundleUrl;
    expect(
      parsed('http://127.0.0.1:9/b.tar.gz?X-Sig=abc <img src=https://tracker.example/p.png>'),
    ).toBe('http://127.0.0.1:9/b.tar.gz?X-Sig=abc%20%3Cimg%20src=https://tracker.example/p.png%3E');
    expect(
      exportJobSchema.parse({ jobId: 'se_1', bundleUrl: 'https://x.example/a b' }).bundleUrl,
    ).toBe('https://x.example/a%20b');
  });

  it.each([
    // S3 SigV4, as the SDK presigns it: the credential's slashes encoded, the signature hex.
    'https://bucket.s3.us-east-1.amazonaws.com/exports/se_1.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260115%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260115T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024',
    // Azure SAS: base64 signature with `%2B`/`%3D`, and a raw `+`/`=`/`/` some servers send.
    'https://acct.blob.core.windows.net/exports/se_1.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-15T13:00:00Z&st=2026-01-15T12:00:00Z&spr=https&sig=aB3%2BcD4%2FeF5%3D',
    'https://acct.blob.core.windows.net/exports/se_1.zip?sv=2022-11-02&sp=r&sig=aB3+cD4/eF5=&rscd=attachment%3B%20filename%3D%22se_1.zip%22',
    // GCS V4 and a CDN token with a fragment-free path of encoded bytes.
    'https://storage.googleapis.com/b/se_1.tar.gz?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam.gserviceaccount.com%2F20260115%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Signature=0a1b',
    'https://cdn.example.com/exports/d%C3%A9j%C3%A0%20vu/se_1.tar.gz?token=abc~def_ghi-jkl.mno',
  ])('a presigned link is kept byte for byte: %s', (bundleUrl) => {
    expect(bundleLinkSchema.parse({ bundleUrl }).bundleUrl).toBe(bundleUrl);
  });

  it.each([undefined, null, '', 'not a url', 'javascript:alert(1)', 'ftp://x.example/b.zip'])(
    'a bundleUrl of %j is refused',
    (bundleUrl) => {
      expect(bundleLinkSchema.safeParse({ jobId: 'se_1', bundleUrl }).success).toBe(false);
    },
  );
});

describe('agent job answers', () => {
  const documentedAgentJob = {
    id: 'job_8a7b6c',
    status: 'completed',
    source: { repository: 'https://github.com/example/docs', ref: 'main' },
    model: 'claude-sonnet-4',
    prLink: 'https://github.com/example/docs/pull/101',
    createdAt: '2026-01-15T12:00:00Z',
    archivedAt: null,
  };

  it('the documented job object reads as typed values', () => {
    expect(agentJobSchema.parse(documentedAgentJob)).toEqual({
      ...documentedAgentJob,
      createdAt: new Date('2026-01-15T12:00:00Z'),
      archivedAt: undefined,
      prLinkUnusable: false,
      statusStated: true,
    });
  });

  it('drops a pull request link that is no http(s) address, and says there was one', () => {
    for (const prLink of ['github.com/example/docs/pull/7', 'javascript:alert(1)', 42]) {
      expect(agentJobSchema.parse({ ...documentedAgentJob, prLink })).toMatchObject({
        prLink: undefined,
        prLinkUnusable: true,
      });
    }
    for (const prLink of [null, undefined, '']) {
      expect(agentJobSchema.parse({ ...documentedAgentJob, prLink })).toMatchObject({
        prLink: undefined,
        prLinkUnusable: false,
      });
    }
    const { prLink: _, ...withoutLink } = documentedAgentJob;
    expect(agentJobSchema.parse(withoutLink)).toMatchObject({ prLinkUnusable: false });
  });

  it('a create answer without status reads as an active job, marked as a guess', () => {
    const { status: _status, ...created } = documentedAgentJob;
    expect(agentJobSchema.parse({ ...created, prLink: null })).toMatchObject({
      status: 'active',
      statusStated: false,
    });
    // A status of null is none stated either: the job exists, and is followed.
    expect(agentJobSchema.parse({ ...created, status: null })).toMatchObject({
      status: 'active',
      statusStated: false,
    });
  });

  it.each([
    ['source is null', { source: null }, {}],
    ['source.ref is null', { source: { repository: 'https://g.example/r', ref: null } }, {}],
    ['source is missing', { source: undefined }, {}],
  ])('an answer where %s still reads', (_what, fields, source) => {
    expect(agentJobSchema.parse({ ...documentedAgentJob, ...fields }).source).toMatchObject(source);
  });

  it('a prLink is kept as the URL it parses to: no markup', () => {
    const prLink = 'https://github.com/example/docs/pull/101 <img src=y>';
    const parsed = agentJobSchema.parse({ ...documentedAgentJob, prLink }).prLink;
    expect(parsed).toBe('https://github.com/example/docs/pull/101%20%3Cimg%20src=y%3E');
  });

  it.each([null, 'not a link', 'javascript:alert(1)'])(
    'a prLink of %j reads as no link',
    (prLink) => {
      expect(agentJobSchema.parse({ ...documentedAgentJob, prLink }).prLink).toBeUndefined();
    },
  );

  it('a model nobody listed and extra fields are accepted', () => {
    const job = agentJobSchema.parse({ ...documentedAgentJob, model: 'gpt-9', cost: 3 });
    expect(job.model).toBe('gpt-9');
    expect(job).not.toHaveProperty('cost');
  });

  it.each(['abc/def', '../x', '..', ''])('the agent job id %j is refused', (id) => {
    expect(agentJobSchema.safeParse({ ...documentedAgentJob, id }).success).toBe(false);
    expect(agentJobAnswer('job_1').safeParse({ ...documentedAgentJob, id }).success).toBe(false);
  });

  it('an answer about a named job without id (the vendor requires no field) is that job', () => {
    const { id: _id, ...withoutId } = documentedAgentJob;
    expect(agentJobAnswer('job_1').parse(withoutId)).toMatchObject({
      id: 'job_1',
      status: 'completed',
    });
    expect(agentJobAnswer('job_1').parse({ ...withoutId, id: null }).id).toBe('job_1');
    // An id the server names is kept: the caller warns when it is another job.
    expect(agentJobAnswer('job_1').parse(documentedAgentJob).id).toBe('job_8a7b6c');
    // A creation has no job to fall back on: its id is required.
    expect(agentJobSchema.safeParse(withoutId).success).toBe(false);
  });
});
