import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's entry as the build ships it: `name` beside the module that starts it
 * (`moduleUrl`, its `import.meta.url`), which is dist/ (or dist/cli/) in the bundles and
 * .build/<dir>/ after tsc. Undefined where it is not (the sources run by tsx, whose tests
 * name the entry themselves).
 */
export function shippedWorkerFile(moduleUrl: string, name: string): string | undefined {
  const url = new URL(name, moduleUrl);
  if (url.protocol !== 'file:') return undefined;
  const file = fileURLToPath(url);
  return existsSync(file) ? file : undefined;
}
