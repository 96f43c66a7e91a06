import fs from 'node:fs/promises';
import path from 'node:path';
import { type Dispatcher, request } from 'undici';
import type { CompareWith } from '../config.js';
import { formatBytes, formatDuration } from '../duration.js';
import { errorMessage } from '../errors.js';
import { contentEncoding, decoderFor, header, readDecodedBytes } from '../http.js';
import {
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  type Manifest,
  parseManifest,
  readManifest,
  textOfManifest,
  writtenByNewer,
} from '../deliver/manifest.js';
import { earlierExportIn, type TargetState } from '../deliver/target.js';
import { withoutQuery } from '../net.js';

/** The earlier export a new one is compared with, and where its manifest came from. */
export interface Baseline {
  manifest: Manifest;
  /** In words, for the log and the summary: `the earlier export in path (/w/site)`. */
  source: string;
}

export type BaselineResult =
  | { kind: 'found'; baseline: Baseline }
  /** Nothing to compare with, for a reason that is normal (a first export). */
  | { kind: 'none'; reason: string }
  /** A source was given but could not be used: worth a warning. */
  | { kind: 'unusable'; reason: string };

export interface BaselineContext {
  /** What `path` holds now (read before the run). */
  target?: TargetState;
  /** `path` itself, for messages. */
  targetPath: string;
  dispatcher: Dispatcher;
  requestTimeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The folder the site is served under on `domain` (`/docs`, as the URL encodes it), or ''
 * for its root: known from a `compare-with` address on that host that reads the manifest
 * under its own name, which lies at the root of every export. Any other source says
 * nothing of it (a manifest of another name may be kept anywhere, another host may
 * serve the site elsewhere).
 */
export function sitePathOf(source: CompareWith, domain: string): string {
  if (source.kind !== 'url' || source.url.hostname !== domain) return '';
  const { pathname } = source.url;
  return pathname.endsWith(`/${MANIFEST_NAME}`) ? pathname.slice(0, -MANIFEST_NAME.length - 1) : '';
}

/** Loads the earlier export's manifest from where `compare-with` says. Never throws. */
export async function loadBaseline(
  source: CompareWith,
  context: BaselineContext,
): Promise<BaselineResult> {
  try {
    if (source.kind === 'url') return await fetchManifest(source.url, context);
    if (source.kind === 'file') return await readManifestAt(source.path, source.given);
    if (source.kind === 'none') return { kind: 'none', reason: '`compare-with` is none' };
    const earlier = earlierExportIn(context.target);
    if (earlier !== undefined) {
      return {
        kind: 'found',
        baseline: {
          manifest: earlier,
          source: `the earlier export in \`path\` (${context.targetPath})`,
        },
      };
    }
    return {
      kind: 'none',
      reason: `\`path\` (${context.targetPath}) holds no earlier export to compare with; set \`compare-with\` to the live site's manifest to compare with what is deployed`,
    };
  } catch (err) {
    if (context.signal?.aborted) throw err;
    return { kind: 'unusable', reason: errorMessage(err) };
  }
}

function usable(manifest: Manifest, where: string): BaselineResult {
  if (manifest.files.length === 0 && manifest.archive.file !== undefined) {
    return {
      kind: 'unusable',
      reason: `${where} describes a kept archive (${manifest.archive.file}), not an extracted site, so it lists no pages`,
    };
  }
  return { kind: 'found', baseline: { manifest, source: where } };
}

/** A manifest file, or a directory holding an export (and so its manifest). */
async function readManifestAt(file: string, given: string): Promise<BaselineResult> {
  const stat = await fs.stat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const shown = given === file ? file : `"${given}" (${file})`;
  if (stat === undefined) {
    // `docs.example.com`, `docs.example.com/docs/`: a site, written as a path.
    const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?(\/[^\\]*)?$/i.exec(given);
    const hint =
      host !== null && !/\.(?:json|html?)$/i.test(given)
        ? `; for the live site, give https://${host[1]}${(host[2] ?? '/').replace(/\/?$/, '/')}`
        : given.toLowerCase() === 'none'
          ? '; to compare with nothing, write none in lowercase'
          : '';
    return { kind: 'unusable', reason: `\`compare-with\` ${shown} does not exist${hint}` };
  }
  // A link the user named is followed; readManifest never follows one itself.
  const manifestFile = stat.isDirectory()
    ? path.join(file, MANIFEST_NAME)
    : await fs.realpath(file);
  const read = await readManifest(manifestFile);
  if (read.kind === 'absent') {
    return {
      kind: 'unusable',
      reason: `\`compare-with\` ${shown} is a directory without an export manifest (${MANIFEST_NAME})`,
    };
  }
  if (read.kind === 'invalid') {
    return {
      kind: 'unusable',
      reason:
        read.newer === undefined
          ? `\`compare-with\` ${manifestFile} is not an export manifest: ${read.reason}`
          : cannotRead(`\`compare-with\` ${manifestFile}`, read.newer),
    };
  }
  return usable(read.manifest, `the manifest ${manifestFile}`);
}

/**
 * The manifest as a site serves it: plain GET, no credentials, no redirects followed,
 * within one request-timeout from start to last byte (a site that sends a byte at a time
 * never trips a timeout between chunks, and the report is not worth holding the export).
 */
async function fetchManifest(url: URL, context: BaselineContext): Promise<BaselineResult> {
  const shown = withoutQuery(url);
  const deadline = AbortSignal.timeout(context.requestTimeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
  const failed = (err: unknown): BaselineResult => {
    if (context.signal?.aborted) throw err;
    if (deadline.aborted) {
      return {
        kind: 'unusable',
        reason: `${shown} did not answer in full within ${formatDuration(context.requestTimeoutMs)} (\`request-timeout\`)`,
      };
    }
    const code = (err as { code?: string }).code;
    return { kind: 'unusable', reason: `could not fetch ${shown} (${code ?? errorMessage(err)})` };
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      dispatcher: context.dispatcher,
      headers: {
        accept: 'application/json',
        'accept-encoding': 'identity',
        'user-agent': 'static-export-action',
      },
      headersTimeout: context.requestTimeoutMs,
      bodyTimeout: context.requestTimeoutMs,
      signal,
    });
  } catch (err) {
    return failed(err);
  }
  const { statusCode } = response;
  if (statusCode !== 200) {
    // Drained, not destroyed: destroying a body makes it emit an abort error.
    await response.body.dump().catch(() => undefined);
    const location = header(response.headers, 'location');
    const why =
      statusCode === 404
        ? 'the site does not serve its export manifest there yet (a first deploy, or the file is not published)'
        : statusCode >= 300 && statusCode < 400 && location
          ? redirection(location, url)
          : statusCode >= 500
            ? 'the site failed to serve it; the next run tries again'
            : 'it is not served there';
    return { kind: 'unusable', reason: `${shown} answered HTTP ${statusCode}: ${why}` };
  }
  let read: { bytes: Buffer; truncated: boolean };
  try {
    // Asked for as is, but a store may keep it compressed and say so (S3's Content-Encoding).
    read = await readDecodedBytes(response.body, response.headers, MANIFEST_MAX_BYTES);
  } catch (err) {
    // Fetched in full, and not in the encoding its header names (a CDN's wrong label).
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_') && !context.signal?.aborted) {
      return {
        kind: 'unusable',
        reason: `${shown} is served with Content-Encoding ${JSON.stringify(contentEncoding(response.headers))}, but its body is not in that encoding (${code}): serve it as is, or with the header its bytes have`,
      };
    }
    return failed(err);
  }
  const { bytes, truncated } = read;
  if (truncated) {
    return {
      kind: 'unusable',
      reason: `${shown} is larger than ${formatBytes(MANIFEST_MAX_BYTES)}: not an export manifest`,
    };
  }
  const text = textOfManifest(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const encoding = contentEncoding(response.headers);
    if (encoding !== undefined && decoderFor(encoding) === undefined) {
      return {
        kind: 'unusable',
        reason: `${shown} is served with Content-Encoding ${JSON.stringify(encoding)}, which the action cannot undo: serve it as is or gzip`,
      };
    }
    // A site that answers every path with a page (an app's fallback, a login page).
    const html = /^\s*</.test(text) || /html/i.test(header(response.headers, 'content-type') ?? '');
    return {
      kind: 'unusable',
      reason: html
        ? `${shown} answered with an HTML page, not the manifest: the site serves a page for paths it does not have (a fallback or a login page), so ${MANIFEST_NAME} is not published with it`
        : `${shown} is not JSON`,
    };
  }
  const parsed = parseManifest(json);
  if (parsed.kind === 'invalid') {
    return {
      kind: 'unusable',
      reason:
        parsed.newer === undefined
          ? `${shown} is not an export manifest (${parsed.reason})`
          : cannotRead(shown, parsed.newer),
    };
  }
  return usable(parsed.manifest, `the manifest served at ${shown}`);
}

/** A manifest of a later version: there is no report, and it is the action that is behind. */
function cannotRead(where: string, version: number): string {
  return `${where} ${writtenByNewer(version)}, which this one cannot read: update the action to compare with it`;
}

/** Why a redirect is not followed, and where to look instead when it is a web address. */
function redirection(location: string, from: URL): string {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return 'it redirects to an address that is not a URL';
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return `it redirects to a ${target.protocol} address, not a web address`;
  }
  return `it redirects to ${withoutQuery(target)}: give that address`;
}
