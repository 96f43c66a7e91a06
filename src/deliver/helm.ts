/** What a deploy job needs to serve the export with the self-hosted chart. */
export interface HelmValues {
  bundleUrl: string;
  version: string;
  jobId: string;
  domain: string;
  expiresAt?: Date;
}

/**
 * What YAML 1.1 readers (libyaml, go-yaml, so Helm) do not take as text, where JSON leaves
 * it raw or where it ends a comment: the C0 controls but tab, DEL, the C1 controls and the
 * non-characters U+FFFE and U+FFFF are refused (the whole file with them), and LF, CR,
 * NEL, LS and PS end a line, a comment's too.
 */
const NOT_YAML_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;
/** Half of a surrogate pair, alone: no character, and no `\u` escape YAML accepts. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeForYaml(text: string): string {
  return text.replace(NOT_YAML_TEXT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A JSON string, which is a YAML double-quoted scalar once what YAML 1.1 reads otherwise is
 * escaped. A lone surrogate (a JSON answer can hold one) becomes U+FFFD, as it does in any
 * UTF-8 file: JSON would write it as an escape that YAML readers refuse.
 */
function quoted(value: string): string {
  return escapeForYaml(JSON.stringify(value.replace(LONE_SURROGATE, '\ufffd')));
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
