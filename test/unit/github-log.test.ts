import { describe, expect, it } from 'vitest';
import { renderGitHubLog, renderSummaryText } from '../../scripts/github-log.js';

const RUNNER_OUTPUT = [
  '::add-mask::mint_secretkey0001',
  '::debug::API http://127.0.0.1:4010/',
  '::group::Starting the static export of docs.example.com',
  '::debug::POST /v1/static-export/jobs → 202',
  'Export job se_1 is queued.',
  '::endgroup::',
  '::group::Downloading the bundle',
  'Downloaded 8.8 KB.',
  '::warning file=site/index.html,line=3::References https%3A//cdn.example.com%0Aand more',
  '::endgroup::',
  'key mint_secretkey0001 echoed by a server',
  '::error::Export job se_1 failed on the server: out of pages.',
  '',
].join('\n');

describe('renderGitHubLog', () => {
  it('folds groups to their title and line count, hides debug and masks, keeps annotations', () => {
    expect(renderGitHubLog(RUNNER_OUTPUT)).toBe(
      [
        '▸ Starting the static export of docs.example.com (1 line)',
        '▸ Downloading the bundle (2 lines)',
        '  Warning: References https://cdn.example.com\nand more (site/index.html:3)',
        'key *** echoed by a server',
        'Error: Export job se_1 failed on the server: out of pages.',
        '',
      ].join('\n'),
    );
  });

  it('shows the lines between stop-commands and its token as text', () => {
    expect(
      renderGitHubLog(
        [
          '::stop-commands::t0k',
          'Branch: x',
          '::error::not a command',
          '::t0k::',
          '::error::one',
          '',
        ].join('\n'),
      ),
    ).toBe('Branch: x\n::error::not a command\nError: one\n');
  });

  it('unfolds groups on request', () => {
    expect(renderGitHubLog(RUNNER_OUTPUT, { expand: true })).toContain(
      '▾ Starting the static export of docs.example.com (1 line)\n  Export job se_1 is queued.\n',
    );
  });
});

describe('renderSummaryText', () => {
  it('reads a summary as text: heading, aligned facts, links spelled out', () => {
    expect(
      renderSummaryText(
        '### ✅ Done\n\n| Job | `se_1` |\n|---|---|\n| Bundle link | [download](https://x/y) |\n',
      ),
    ).toBe('✅ Done\n\n  Job          se_1\n  Bundle link  download <https://x/y>\n');
  });

  it('undoes Markdown escapes and names a link once when its text is its address', () => {
    // What the agent job's summary holds: the action escapes text that Markdown would read.
    expect(
      renderSummaryText(
        '| Pull request | [https://x/pull/1](https://x/pull/1) |\n|---|---|\n' +
          '| Prompt | Document it \\(+1 more line\\) |\n' +
          '| Repository | https\\://x/docs \\@ agent/1 |\n' +
          '| Code | `a\\|b \\@` |\n',
      ),
    ).toBe(
      '  Pull request  https://x/pull/1\n' +
        '  Prompt        Document it (+1 more line)\n' +
        '  Repository    https://x/docs @ agent/1\n' +
        '  Code          a|b \\@\n',
    );
  });
});
