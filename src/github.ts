import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { INPUT_NAMES, type RawInputs } from './config.js';
import { ActionError, errorMessage, InputError } from './errors.js';
import type { ArtifactUploader } from './export/run.js';
import { execute, type RunOutcome } from './main.js';
import { Redactor } from './redact.js';
import {
  type Annotation,
  COMMAND_LIKE,
  fitSummary,
  type Reporter,
  renderSummary,
  visibleControls,
} from './report.js';
import { cancelOnSignals, exitOnceFlushed } from './signals.js';

/**
 * The part of @actions/core the action speaks through: workflow commands on stdout,
 * GITHUB_OUTPUT and the step summary. Tests pass a recorder of the same shape.
 */
export interface RunnerCommands {
  info(message: string): void;
  notice(message: string, properties?: core.AnnotationProperties): void;
  warning(message: string, properties?: core.AnnotationProperties): void;
  error(message: string, properties?: core.AnnotationProperties): void;
  debug(message: string): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
  setOutput(name: string, value: string): void;
  setSecret(secret: string): void;
  /** Appends to the step summary, when the runner provides one. */
  writeSummary(markdown: string): Promise<void>;
}

export const runnerCommands: RunnerCommands = {
  info: (message) => core.info(message),
  notice: (message, properties) => core.notice(message, properties),
  warning: (message, properties) => core.warning(message, properties),
  error: (message, properties) => core.error(message, properties),
  debug: (message) => core.debug(message),
  group: (name, fn) => core.group(name, fn),
  setOutput: (name, value) => core.setOutput(name, value),
  setSecret: (secret) => core.setSecret(secret),
  async writeSummary(markdown) {
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write();
  },
};

/** The runner's world turned into a Reporter, every line scrubbed of secrets. */
export function githubReporter(
  redactor: Redactor,
  commands: RunnerCommands = runnerCommands,
  workspace: string | undefined = process.env.GITHUB_WORKSPACE,
): Reporter {
  const clean = (text: string) => redactor.redact(text);
  // What the archive or a server wrote may hold escape sequences, and characters that only
  // the runner reads as a blank (U+0085): a log line shows them as escapes.
  const shown = (text: string) => logText(redactor, text);
  /**
   * A file of the checkout is linked from the annotation. One outside it (a `path` such as
   * /srv/site) cannot be, and GitHub would show a dead link: the message names it instead.
   */
  const annotated = (
    message: string,
    annotation?: Annotation,
  ): [string, core.AnnotationProperties] => {
    const title = annotation?.title ? { title: shown(annotation.title) } : {};
    const file = annotation?.file;
    if (file === undefined || file === '') return [shown(message), title];
    const linked = relativeToWorkspace(file, workspace);
    if (linked === undefined) {
      const at = [annotation?.startLine, annotation?.startColumn].filter((n) => n !== undefined);
      return [shown(`${[file, ...at].join(':')}: ${message}`), title];
    }
    return [
      shown(message),
      {
        ...title,
        file: linked,
        ...(annotation?.startLine ? { startLine: annotation.startLine } : {}),
        ...(annotation?.startColumn ? { startColumn: annotation.startColumn } : {}),
      },
    ];
  };
  return {
    info: (message) => commands.info(inertToRunner(shown(message))),
    notice: (message, annotation) => commands.notice(...annotated(message, annotation)),
    warning: (message, annotation) => commands.warning(...annotated(message, annotation)),
    error: (message, annotation) => commands.error(...annotated(message, annotation)),
    debug: (message) => commands.debug(shown(message)),
    group: (title, fn) => commands.group(shown(title), fn),
    setOutput: (name, value) => commands.setOutput(name, clean(value)),
    mask: (value) => commands.setSecret(value),
  };
}

/**
 * Plain log text, which may hold what a server sent (a branch name, a status), fenced
 * with stop-commands when a line of it would otherwise run as a workflow command.
 */
function inertToRunner(message: string): string {
  if (!COMMAND_LIKE.test(message)) return message;
  const token = randomUUID();
  return `::stop-commands::${token}\n${message}\n::${token}::`;
}

/**
 * Annotations point at files relative to the repository checkout; undefined for a file
 * outside it, which no annotation can link to.
 */
function relativeToWorkspace(file: string, workspace: string | undefined): string | undefined {
  if (!workspace || !path.isAbsolute(file)) return file;
  const relative = path.relative(workspace, file);
  const outside =
    relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? undefined : relative;
}

function readInputs(): RawInputs {
  // `prompt` keeps its inner layout; every other input is trimmed by getInput.
  return Object.fromEntries(
    INPUT_NAMES.map((name) => [name, core.getInput(name, { trimWhitespace: name !== 'prompt' })]),
  );
}

/** GitHub Enterprise Server: artifacts v2+ are not available there (same rule as @actions/artifact). */
function isGhes(): boolean {
  const host = new URL(
    process.env.GITHUB_SERVER_URL || 'https://github.com',
  ).hostname.toLowerCase();
  return host !== 'github.com' && !host.endsWith('.ghe.com') && !host.endsWith('.localhost');
}

/** Workflow artifacts through @actions/artifact, loaded only when an upload is asked for. */
export const uploadArtifact: ArtifactUploader = async (name, root, files) => {
  if (isGhes()) {
    core.notice(
      'Workflow artifacts v2+ are not supported on GitHub Enterprise Server: the export was not uploaded as an artifact (use actions/upload-artifact@v3 on GHES).',
    );
    return {};
  }
  const artifact = await import('@actions/artifact');
  const client = new artifact.DefaultArtifactClient();
  const uploaded = await client.uploadArtifact(name, files, root);
  return uploaded.id !== undefined ? { id: uploaded.id } : {};
};

/** The GitHub Action: inputs from the runner, outputs and summary back to it. */
export async function runAction(): Promise<void> {
  const redactor = new Redactor();
  const reporter = githubReporter(redactor);
  const cancel = cancelOnSignals();

  const outcome = await execute(
    readInputs(),
    {
      workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
      tempDir: process.env.RUNNER_TEMP || os.tmpdir(),
      ...(process.env.GITHUB_ACTION ? { stepId: process.env.GITHUB_ACTION } : {}),
      home: os.homedir(),
      runnerDirs: [process.env.RUNNER_TEMP, process.env.RUNNER_TOOL_CACHE, os.tmpdir()].filter(
        (dir): dir is string => Boolean(dir),
      ),
      defaultReleaseVersion: async () => {
        if (!process.env.GITHUB_SHA) return undefined;
        const { context } = await import('@actions/github');
        return context.sha || undefined;
      },
      uploadArtifact,
    },
    reporter,
    { signal: cancel.signal, redactor },
  );
  // Still listening while the summary is written: a signal now, the run being over, must
  // not end the process with the summary lost (a second one still ends it at once).
  const succeeded = await reportOutcome(outcome, redactor);
  cancel.dispose();
  if (!succeeded) process.exitCode = 1;
  if (cancel.signal.aborted) await exitOnceFlushed(succeeded ? 0 : 1);
}

/**
 * What the runner shows once the run is over: the step summary, then one error line per
 * refused input or the failure. Returns whether the step succeeded.
 */
export async function reportOutcome(
  outcome: RunOutcome,
  redactor: Redactor,
  commands: RunnerCommands = runnerCommands,
  /** Paths in the summary are shown relative to it. */
  workspace: string = process.env.GITHUB_WORKSPACE || process.cwd(),
): Promise<boolean> {
  const failure =
    outcome.error !== undefined ? redactor.redact(errorMessage(outcome.error)) : undefined;
  if (outcome.record) {
    // Redacted before it is rendered, too: escaped (`mint\_…`), a key a server echoed
    // into a field would no longer match, and Markdown would show it whole again.
    const markdown = renderSummary(redactedTexts(outcome.record, redactor), failure, {
      workspace,
    });
    try {
      await commands.writeSummary(fitSummary(redactor.redact(markdown)));
    } catch (err) {
      commands.warning(`Could not write the job summary: ${redactor.redact(errorMessage(err))}`);
    }
  }
  if (outcome.error === undefined) return true;
  if (outcome.error instanceof InputError) {
    for (const problem of outcome.error.problems) {
      commands.error(logText(redactor, `Invalid input ${problem.input}: ${problem.message}`));
    }
    return false;
  }
  // Anything that is not one of the action's own errors is a bug: its stack, for a report.
  if (!(outcome.error instanceof ActionError)) {
    commands.debug(redactor.redact((outcome.error as Error)?.stack ?? String(outcome.error)));
  }
  commands.error(visibleControls(failure as string));
  return false;
}

/** Text for the log: without secrets, its control characters written as escapes. */
function logText(redactor: Redactor, text: string): string {
  return visibleControls(redactor.redact(text));
}

/** `value` with every string in it (in arrays and plain objects, at any depth) redacted. */
function redactedTexts<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactedTexts(item, redactor)) as T;
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, redactedTexts(field, redactor)]),
  ) as T;
}

/** The name @github/local-action (and the typescript-action template) looks for. */
export { runAction as run };
