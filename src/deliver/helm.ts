/** What a deploy job needs to serve the export with the self-hosted chart. */
export interface HelmValues {
  bundleUrl: string;
  version: string;
  jobId: string;
  domain: string;
  expiresAt?: Date;
}

/**
 * A values file for `helm upgrade -f`. Strings are written as JSON strings, which are
 * valid YAML double-quoted scalars, so no value can break out of its field.
 */
export function renderHelmValues(values: HelmValues): string {
  const expiry = values.expiresAt
    ? `# The bundle link expires at ${values.expiresAt.toISOString()}: roll out before then, or export again.\n`
    : '';
  return (
    `# Static export ${values.jobId} of ${values.domain}, written by static-export-action.\n` +
    expiry +
    'staticExport:\n' +
    '  enabled: true\n' +
    `  bundleUrl: ${JSON.stringify(values.bundleUrl)}\n` +
    `  version: ${JSON.stringify(values.version)}\n`
  );
}
