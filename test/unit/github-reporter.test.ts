import * as core from '@actions/core';
import { describe, expect, it } from 'vitest';
import { githubReporter, reportOutcome, type RunnerCommands } from '../../src/github.js';
import { Redactor } from '../../src/redact.js';

/** What @actions/core prints for each call, captured as the runner reads it. */
function capturedCommands(): { commands: RunnerCommands; stdout: () => string } {
  let text = '';
  const capture = (print: () => void) => {
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      print();
    } finally {
      process.stdout.write = write;
    }
  };
  const commands: RunnerCommands = {
    info: (message) => capture(() => core.info(message)),
    notice: (message, properties) => capture(() => core.notice(message, properties)),
    warning: (message, properties) => capture(() => core.warning(message, properties)),
    error: (message, properties) => capture(() => core.error(message, properties)),
    debug: (message) => capture(() => core.debug(message)),
    group: async (name, fn) => {
      capture(() => core.startGroup(name));
      try {
        return await fn();
      } finally {
        capture(() => core.endGroup());
      }
    },
    setOutput: () => undefined,
    setSecret: (secret) => capture(() => core.setSecret(secret)),
    writeSummary: async () => undefined,
  };
  return { commands, stdout: () => text };
}

/**
 * The workflow commands the runner would act on in `stdout`, read as the runner reads
 * them: a line is what lies between CR or LF; `::name…::` after leading whitespace (as
 * .NET's TrimStart sees it: U+0085 and U+00A0 too) is a command, and so is the legacy
 * `##[name…]` anywhere in a line; between `::stop-commands::<token>` and `::<token>::`
 * nothing is.
 */
function commandsRun(stdout: string): string[] {
  const run: string[] = [];
  let resumeToken: string | undefined;
  for (const line of stdout.split(/\r\n|\r|\n/)) {
    const trimmed = line.replace(
      /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/,
      '',
    );
    if (resumeToken !== undefined) {
      if (trimmed === `::${resumeToken}::`) resumeToken = undefined;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(trimmed);
    if (stop) {
      resumeToken = stop[1];
      continue;
    }
    const command =
      /^::([a-z-]+)[ :]/i.exec(trimmed)?.[1] ?? /##\[([a-z-]+)[\] ;]/i.exec(line)?.[1];
    if (command) run.push(command);
  }
  return run;
}

describe('the GitHub log', () => {
  it('text from the server cannot run workflow commands, and still reads as it was sent', async () => {
    const { commands, stdout } = capturedCommands();
    const reporter = githubReporter(new Redactor(), commands, '/work');
    const branch =
      'agent/fix\n::error title=Injected::pwned\r::add-mask::mint_\n  ::set-output name=x::1';
    reporter.info(`Branch: ${branch}`);
    reporter.info('Pull request: https://example.com/pull/1 ##[error]legacy form');
    await reporter.group('Agent job\n::warning::in a title', async () => {
      reporter.info('::notice::a line that starts as a command');
    });
    reporter.warning('Server said:\n::error::x');

    expect(commandsRun(stdout())).toEqual(['group', 'endgroup', 'warning']);
    for (const text of [
      'Branch: agent/fix',
      '::error title=Injected::pwned',
      'legacy form',
      '::notice::a line that starts as a command',
    ]) {
      expect(stdout()).toContain(text);
    }
  });

  it('a line break then a blank only .NET trims (NEL, no-break space) starts no command', () => {
    const { commands, stdout } = capturedCommands();
    const reporter = githubReporter(new Redactor(), commands, '/work');
    // An href from the archive, quoted in a readiness line.
    reporter.info('Links such as guide\n\u0085::error title=Forged::pwned leave out .html');
    reporter.info('Links such as guide\n\u00a0\u3000::warning::pwned leave out .html');
    reporter.info('Links such as guide\u2028::notice::pwned\u2029 leave out .html');
    expect(commandsRun(stdout())).toEqual([]);
    expect(stdout()).toContain('guide\n\\x85::error title=Forged::pwned');
    expect(stdout()).toContain('guide\\u2028::notice::pwned\\u2029 leave');
  });

  it('escape sequences and other control characters are shown as escapes', () => {
    const { commands, stdout } = capturedCommands();
    const reporter = githubReporter(new Redactor(), commands, '/work');
    reporter.info('Title: \x1b[31mred\x1b[0m\rover');
    reporter.warning('Host \x1b]8;;https://evil.example\x07x\x9b');
    expect(stdout()).not.toMatch(/[\x1b\x07\x9b\r]/);
    expect(stdout()).toContain('Title: \\x1b[31mred\\x1b[0m\\x0dover');
    expect(stdout()).toContain('::warning::Host \\x1b]8;;https://evil.example\\x07x\\x9b');
  });

  it('plain lines are printed as they are', () => {
    const { commands, stdout } = capturedCommands();
    githubReporter(new Redactor(), commands, '/work').info('Export job se_1 is running.');
    expect(stdout()).toBe('Export job se_1 is running.\n');
  });
});

describe('the step summary', () => {
  it.each(['mint_Ab3/dEf9GhIjKlMnOpQrStUvWx', 'mint_ab1_cd2_ef3_gh4_ij5_kl6_mn7'])(
    'never holds the key %s a server echoed into a job field, escaped or not',
    async (key) => {
      const redactor = new Redactor();
      redactor.add(key);
      let summary = '';
      const commands = {
        writeSummary: (markdown: string) => {
          summary = markdown;
          return Promise.resolve();
        },
      } as unknown as RunnerCommands;
      await reportOutcome(
        {
          record: {
            command: 'agent',
            projectId: 'docs',
            startedAt: 0,
            finishedAt: 1000,
            waited: true,
            jobId: 'aj_1',
            status: 'completed',
            model: `echo ${key}`,
            repository: `acme/${key}`,
            ref: `agent/${key}`,
          },
        },
        redactor,
        commands,
        '/work',
      );
      // What a reader sees: Markdown's escapes undone.
      const shown = summary.replace(/\\(.)/g, '$1');
      expect(shown).not.toContain(key.slice(5));
      expect(summary).toContain('| Model | echo \\*\\*\\* |');
    },
  );
});

describe('annotations', () => {
  const annotate = (file: string) => {
    const { commands, stdout } = capturedCommands();
    githubReporter(new Redactor(), commands, '/work/space').error('Broken link /gone.', {
      title: 'Broken internal link',
      file,
      startLine: 3,
      startColumn: 5,
    });
    return stdout();
  };

  it('link a file of the checkout, relative to it', () => {
    expect(annotate('/work/space/site/index.html')).toBe(
      '::error title=Broken internal link,file=site/index.html,line=3,col=5::Broken link /gone.\n',
    );
    expect(annotate('/work/space/..site/index.html')).toContain('file=..site/index.html,');
  });

  it('name a file outside the checkout in the message, where it was a dead ../ link', () => {
    expect(annotate('/srv/docs/site/index.html')).toBe(
      '::error title=Broken internal link::/srv/docs/site/index.html:3:5: Broken link /gone.\n',
    );
    expect(annotate('/work/other/index.html')).toBe(
      '::error title=Broken internal link::/work/other/index.html:3:5: Broken link /gone.\n',
    );
  });
});
