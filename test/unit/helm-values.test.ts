import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderHelmValues } from '../../src/deliver/helm.js';
import { ROOT } from '../support/action-yml.js';

const values = {
  bundleUrl: 'https://store.example.com/b.tar.gz?X-Amz-Signature=abc',
  version: 'v1.2.3',
  jobId: 'se_3f9a2c1b8e7d4a06',
  domain: 'docs.example.com',
};

/** Line breaks of YAML 1.1 (libyaml, go-yaml: what Helm reads values with) besides LF and CR. */
const YAML11_BREAKS = /[\u0085\u2028\u2029]/;
/** Characters YAML refuses in a document: DEL and the C1 controls but NEL. */
const NOT_PRINTABLE = /[\u007f-\u0084\u0086-\u009f]/;

describe('the Helm values file', () => {
  it('is shown in the README as it is written: its comments, then double-quoted values', async () => {
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const sample = /^The values file starts[^]*?```yaml\n([^]*?)```/m.exec(readme)?.[1];
    const written = renderHelmValues({
      ...values,
      bundleUrl: `https://store.example.com/exports/${values.jobId}/docs.example.com.tar.gz?X-Amz-Signature=abc`,
      version: '3f9a2c1b8e7d4a06c5b4a3f2e1d0c9b8a7f6e5d4',
      expiresAt: new Date('2025-06-01T13:00:00Z'),
    });
    // The sample elides with `…`.
    const pattern = (line: string) =>
      new RegExp(
        `^${line
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
    const lines = (sample ?? '').trimEnd().split('\n');
    expect(lines).toHaveLength(written.trimEnd().split('\n').length);
    written
      .trimEnd()
      .split('\n')
      .forEach((line, at) => expect(line).toMatch(pattern(lines[at] as string)));
  });

  it('keeps a job id with a YAML 1.1 line break inside its comment', () => {
    // The API's ids may hold any character but a slash, a backslash and C0 controls.
    for (const jobId of ['se_1\u0085injected: true', 'se_1\u2028injected: true']) {
      const text = renderHelmValues({ ...values, jobId });
      expect(text).not.toMatch(YAML11_BREAKS);
      expect(parse(text)).toEqual({
        staticExport: { enabled: true, bundleUrl: values.bundleUrl, version: values.version },
      });
    }
  });

  it('writes a release version with DEL or C1 controls as escapes, read back as given', () => {
    for (const version of ['v1\u007f', 'v1\u0085x', 'v1\u2029x', 'v1\u009bx']) {
      const text = renderHelmValues({ ...values, version });
      expect(text).not.toMatch(YAML11_BREAKS);
      expect(text).not.toMatch(NOT_PRINTABLE);
      expect((parse(text) as { staticExport: { version: string } }).staticExport.version).toBe(
        version,
      );
    }
  });

  it('escapes what YAML 1.1 readers refuse in a file, and writes a lone surrogate as U+FFFD', () => {
    const text = renderHelmValues({
      ...values,
      jobId: 'se_\u0016\ufffe\nstaticExport: {}',
      version: 'v1\uffff\ud800',
    });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\ufffe\uffff]/);
    expect(text.split('\n')).toHaveLength(6);
    expect((parse(text) as { staticExport: { version: string } }).staticExport.version).toBe(
      'v1\uffff\ufffd',
    );
  });
});
