import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The inputs of action.yml that have a default, with it: what the runner fills in. */
export const ACTION_DEFAULTS: Readonly<Record<string, string>> = (() => {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  return Object.fromEntries(
    Object.entries(action.inputs).flatMap(([name, input]) =>
      input.default === undefined ? [] : [[name, String(input.default)]],
    ),
  );
})();
