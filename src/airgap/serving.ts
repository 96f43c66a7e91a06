import type { Serving } from './findings.js';

/**
 * The nginx configuration that serves an export the way its links expect: the file,
 * then the file with `.html` appended (extensionless links), then the directory's
 * index. `$uri.html` must come before `$uri/`: Next.js writes a directory of RSC
 * payloads beside each page (`guides/x.html` and `guides/x/`), and a directory without
 * an index answers 403.
 */
export function nginxConfig(
  serving: Pick<Serving, 'has404Page'>,
  where: { root?: string; listen?: string } = {},
): string {
  return [
    'server {',
    `    listen ${where.listen ?? '80'};`,
    `    root ${where.root ?? '/usr/share/nginx/html'};`,
    '    index index.html;',
    '    location / {',
    '        try_files $uri $uri.html $uri/ =404;',
    '    }',
    ...(serving.has404Page ? ['    error_page 404 /404.html;'] : []),
    '}',
  ].join('\n');
}

/** One line on what a plain static host would get wrong, or undefined when nothing. */
export function servingVerdict(serving: Serving): string | undefined {
  if (!serving.needsRewrites) return undefined;
  const example = serving.extensionless.example;
  const trap =
    serving.directoryTrap.count > 0
      ? ` ${serving.directoryTrap.count} of them also have a directory of the same name (${serving.directoryTrap.example?.served.replace(/\.html$/, '/')}): a server that tries the directory first answers 403.`
      : '';
  return `${serving.extensionless.count} internal link(s) leave out ".html" (e.g. ${example?.url} in ${example?.file} is served by ${example?.served}): a plain static host answers 404 for them, so the server needs a rewrite rule.${trap}`;
}
