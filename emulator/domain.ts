const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why `domain` is not a bare hostname, or null when it is one. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return 'domain must not be empty';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain)) {
    return 'domain must be a bare hostname without a scheme: drop the "https://"';
  }
  if (/\s/.test(domain)) return 'domain must not contain spaces';
  if (domain.includes('/'))
    return 'domain must be a bare hostname without a path or trailing slash';
  if (domain.includes(':')) return 'domain must be a bare hostname without a port';
  if (domain.endsWith('.')) return 'domain must not end with a dot';
  if (domain.length > 253) return 'domain must be at most 253 characters';
  if (domain !== domain.toLowerCase()) return 'domain must be lowercase';
  const bad = domain.split('.').find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return `domain label "${bad}" must be 1-63 characters of a-z, 0-9 and "-", not starting or ending with "-"`;
  }
  return null;
}
