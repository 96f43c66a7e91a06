/**
 * Removes secrets from text that leaves the process (log lines, error messages,
 * outputs, the summary), including text that came from a server, which may echo a
 * request's Authorization header back.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.add(secret);
  }

  redact(text: string): string {
    let out = text.replace(/(bearer\s+)[^\s"'<>,;]+/gi, '$1***');
    for (const secret of this.#secrets) out = out.split(secret).join('***');
    return out;
  }
}
