/** What a deploy job needs to serve the export with the self-hosted chart. */
export interface HelmValues {
  bundleUrl: string;
  version: string;
  jobId: string;
  domain: string;
  expiresAt?: Date;
}

/**
 * What JSON leaves raw but YAML 1.1 readers (libyaml, go-yaml, so Helm) do not take as
 * text: DEL and the C1 controls are refused, and NEL, LS and PS end a line, a comment's too.
 */
const NOT_YAML_TEXT = /[\u007f-\u009f\u2028\u2029]/g;

function escapeForYaml(text: string): string {
  return text.replace(NOT_YAML_TEXT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSON string, which is a YAML double-quoted scalar once what YAML 1.1 reads otherwise is escaped. */
function quoted(value: string): string {
  return escapeForYaml(JSON.stringify(value));
}

/**
 * A values file for `helm upgrade -f`. Strings are written as double-quoted scalars and
 * the comments hold no line break, so no value can break out of its field.
 */
export function renderHelmValues(values: HelmValues): string {
  const expiry = values.expiresAt
    ? `# The bundle link expires at ${values.expiresAt.toISOString()}: roll out before then, or export again.\n`
    : '';
  return (
    `# Static export ${escapeForYaml(values.jobId)} of ${values.domain}, written by static-export-action.\n` +
    expiry +
    'staticExport:\n' +
    '  enabled: true\n' +
    `  bundleUrl: ${quoted(values.bundleUrl)}\n` +
    `  version: ${quoted(values.version)}\n`
  );
}
