/**
 * Builds the fixture sites with real generators from npm and caches the output, keyed by
 * the generators' lockfile, this builder's sources and the content, so tests never build.
 *
 *   tsx test/sites/build.ts            the standard set: every generator, clean and leaky
 *   tsx test/sites/build.ts --only next
 *
 * In code: `await buildSite({ generator: 'next', variant: 'clean', edits: { ... } })`
 * returns the directory of a build (building it once); `cachedSite(spec)` only looks.
 * The generators are installed from test/sites/generators/package-lock.json on first use.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Generator, pagesWith, type Variant } from './content.js';
import { writeProject } from './generators.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GENERATORS = path.join(HERE, 'generators');
const REPO = path.resolve(HERE, '../..');
/** Built sites live here, outside the sources: `<key>/site`. */
export const SITE_CACHE = path.join(REPO, 'node_modules', '.cache', 'static-export-sites');

export const ALL_GENERATORS: Generator[] = ['next', 'vitepress', 'starlight'];
export const VARIANTS: Variant[] = ['clean', 'leaky'];

export interface SiteSpec {
  generator: Generator;
  variant: Variant;
  /** Per-route changes: a new markdown body, or null to leave the page out. */
  edits?: Record<string, string | null>;
  /** Pages built at another route (old route → new), the links to them following. */
  moves?: Record<string, string>;
  /** Another build of the same content (a build of its own: new build id, new hashes). */
  rebuild?: number;
}

/** The standard fixtures the tests use. */
export const STANDARD_SITES: SiteSpec[] = ALL_GENERATORS.flatMap((generator) =>
  VARIANTS.map((variant) => ({ generator, variant })),
);

function cacheKey(spec: SiteSpec): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(GENERATORS, 'package-lock.json')));
  for (const source of ['build.ts', 'content.ts', 'generators.ts'])
    hash.update(readFileSync(path.join(HERE, source)));
  hash.update(JSON.stringify({ ...spec, edits: spec.edits ?? {} }));
  return `${spec.generator}-${spec.variant}-${hash.digest('hex').slice(0, 16)}`;
}

/** The directory of a built site, or undefined when it has not been built yet. */
export function cachedSite(spec: SiteSpec): string | undefined {
  const site = path.join(SITE_CACHE, cacheKey(spec), 'site');
  return existsSync(path.join(SITE_CACHE, cacheKey(spec), 'complete')) ? site : undefined;
}

/** Why a test cannot run without the fixtures, and how to get them. */
export function missingFixtureReason(spec: SiteSpec): string {
  return `the ${spec.generator} ${spec.variant} fixture site is not built (run: npx tsx test/sites/build.ts)`;
}

function run(command: string, args: string[], cwd: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        ASTRO_TELEMETRY_DISABLED: '1',
        DO_NOT_TRACK: '1',
        NODE_ENV: 'production',
        CI: 'true',
      },
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      void fs.writeFile(log, Buffer.concat(output)).finally(() => {
        if (code === 0) resolve();
        else
          reject(
            new Error(
              `${command} ${args.join(' ')} exited ${code}:\n${Buffer.concat(output).toString().slice(-4000)}`,
            ),
          );
      });
    });
  });
}

/** Installs the generators once per lockfile. */
export async function installGenerators(): Promise<void> {
  const lock = readFileSync(path.join(GENERATORS, 'package-lock.json'));
  const stamp = path.join(GENERATORS, 'node_modules', '.installed-lock-sha256');
  const digest = createHash('sha256').update(lock).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  console.log('Installing the site generators (test/sites/generators) …');
  // `npm install`, not `npm ci`: this registry lacks the other platforms' optional builds
  // (@next/swc-darwin-*, @rollup/rollup-win32-*…), so the lockfile cannot list them and
  // `npm ci` refuses it as out of sync. The versions still come from the lockfile.
  await run('npm', ['install', '--no-audit', '--no-fund'], GENERATORS, '/dev/null');
  await fs.writeFile(stamp, digest);
}

/** Builds the site (once) and returns the directory that holds it. */
export async function buildSite(spec: SiteSpec): Promise<string> {
  const cached = cachedSite(spec);
  if (cached) return cached;
  await installGenerators();
  const key = cacheKey(spec);
  const entry = path.join(SITE_CACHE, key);
  // The project sits inside the generators' package so that its imports resolve there.
  const work = path.join(GENERATORS, 'work', key);
  await fs.rm(work, { recursive: true, force: true });
  await fs.rm(entry, { recursive: true, force: true });
  await fs.mkdir(entry, { recursive: true });
  const started = Date.now();
  try {
    const project = await writeProject(
      spec.generator,
      work,
      pagesWith(spec.edits, spec.moves),
      spec.variant,
      GENERATORS,
    );
    const [binary, ...args] = project.command;
    await run(
      path.join(GENERATORS, 'node_modules', '.bin', binary),
      args,
      work,
      path.join(entry, 'build.log'),
    );
    await fs.cp(path.join(work, project.output), path.join(entry, 'site'), { recursive: true });
    await fs.writeFile(path.join(entry, 'complete'), `${JSON.stringify(spec)}\n`);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
  console.log(
    `Built ${spec.generator} ${spec.variant} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${path.join(entry, 'site')}`,
  );
  return path.join(entry, 'site');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } } });
  const only = values.only ?? [];
  const specs = STANDARD_SITES.filter((spec) => only.length === 0 || only.includes(spec.generator));
  for (const spec of specs) {
    const cached = cachedSite(spec);
    if (cached) console.log(`Cached ${spec.generator} ${spec.variant}: ${cached}`);
    else await buildSite(spec);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
