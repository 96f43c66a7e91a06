import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { INPUT_NAMES, type RawInputs } from './config.js';
import { errorMessage, InputError } from './errors.js';
import type { ArtifactUploader } from './export/run.js';
import { execute } from './main.js';
import { Redactor } from './redact.js';
import { type Annotation, type Reporter, renderSummary } from './report.js';
import { cancelOnSignals } from './signals.js';

/** The runner's world turned into a Reporter, every line scrubbed of secrets. */
export function githubReporter(redactor: Redactor): Reporter {
  const clean = (text: string) => redactor.redact(text);
  const properties = (annotation?: Annotation): core.AnnotationProperties => ({
    ...(annotation?.title ? { title: clean(annotation.title) } : {}),
    ...(annotation?.file ? { file: relativeToWorkspace(annotation.file) } : {}),
    ...(annotation?.startLine ? { startLine: annotation.startLine } : {}),
    ...(annotation?.startColumn ? { startColumn: annotation.startColumn } : {}),
  });
  return {
    info: (message) => core.info(clean(message)),
    notice: (message, annotation) => core.notice(clean(message), properties(annotation)),
    warning: (message, annotation) => core.warning(clean(message), properties(annotation)),
    error: (message, annotation) => core.error(clean(message), properties(annotation)),
    debug: (message) => core.debug(clean(message)),
    group: (title, fn) => core.group(clean(title), fn),
    setOutput: (name, value) => core.setOutput(name, clean(value)),
    mask: (value) => core.setSecret(value),
  };
}

/** Annotations point at files relative to the repository checkout. */
function relativeToWorkspace(file: string): string {
  const workspace = process.env.GITHUB_WORKSPACE;
  return workspace && path.isAbsolute(file) ? path.relative(workspace, file) : file;
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
const uploadArtifact: ArtifactUploader = async (name, root, files) => {
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
  cancel.dispose();

  const failure =
    outcome.error !== undefined ? redactor.redact(errorMessage(outcome.error)) : undefined;
  if (outcome.record && process.env.GITHUB_STEP_SUMMARY) {
    const markdown = renderSummary(outcome.record, failure, {
      workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    });
    try {
      await core.summary.addRaw(redactor.redact(markdown)).write();
    } catch (err) {
      core.warning(`Could not write the job summary: ${redactor.redact(errorMessage(err))}`);
    }
  }
  if (outcome.error === undefined) return;
  if (outcome.error instanceof InputError) {
    for (const problem of outcome.error.problems) {
      core.error(redactor.redact(`Invalid input ${problem.input}: ${problem.message}`));
    }
    process.exitCode = 1;
    return;
  }
  if (
    !(outcome.error instanceof Error) ||
    outcome.error.name === 'Error' ||
    outcome.error.name === 'TypeError'
  ) {
    core.debug(redactor.redact((outcome.error as Error)?.stack ?? String(outcome.error)));
  }
  core.setFailed(failure as string);
}

/** The name @github/local-action (and the typescript-action template) looks for. */
export { runAction as run };
