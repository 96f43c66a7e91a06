import { z } from 'zod';

/**
 * Schemas for what the admin API answers. They accept what real servers are known to
 * send (extra fields, numbers as strings, missing or null optional fields, statuses
 * nobody documented) and refuse what would be unsafe to use (ids that could rewrite a
 * URL path, links that are not http(s)).
 */

/**
 * An id as it may be put into a URL path as one (encoded) segment: any string the vendor's
 * schema allows, except what would change the path even after encoding, or once a proxy
 * decodes it: a slash or backslash, `.` and `..`, control characters, the empty string.
 */
export function pathSegment(id: string): string | undefined {
  if (id === '' || id.length > 1024) return undefined;
  let decoded = id;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    // Not percent-encoded text: checked as it is.
  }
  for (const form of [id, decoded]) {
    if (/[/\\\u0000-\u001f\u007f]/.test(form) || form === '.' || form === '..') return undefined;
  }
  return id;
}

/** Ids end up in URL paths: any text that stays one path segment once encoded. */
const identifier = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .refine((id) => pathSegment(id) !== undefined, 'is not a safe identifier');

/** A number, or a string holding one; null, missing and junk become undefined. */
const looseNumber = z
  .unknown()
  .transform((value): number | undefined => {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
    return undefined;
  })
  .optional();

/**
 * Server text as it is shown in a log line: control characters (line breaks, escape
 * sequences) become spaces, so it stays on its line and cannot forge a workflow command.
 */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

const optionalText = z
  .unknown()
  .transform((value) => (typeof value === 'string' ? oneLine(value) || undefined : undefined))
  .optional();

/** A timestamp as ISO 8601 text or epoch seconds/ms; anything else becomes undefined. */
const timestamp = z
  .unknown()
  .transform((value): Date | undefined => {
    if (typeof value === 'string' && value.trim() !== '') {
      const date = new Date(/^\d+$/.test(value.trim()) ? Number(value) * 1000 : value);
      return Number.isNaN(date.getTime()) ? undefined : date;
    }
    if (typeof value === 'number' && Number.isFinite(value)) {
      return new Date(value < 1e12 ? value * 1000 : value);
    }
    return undefined;
  })
  .optional();

/**
 * An http(s) link as the URL parser writes it (what undici requests anyway): what is not
 * allowed in a URL, such as a space or `<`, is percent-encoded, and the rest of the text,
 * a presigned query included, is kept byte for byte.
 */
const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    // The URL parser drops line breaks and tabs: the text as given must hold none.
    if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return false;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'is not an http(s) URL')
  .transform((value) => new URL(value).href);

const status = z
  .string()
  .transform(oneLine)
  .pipe(z.string().min(1))
  .transform((value) => value.toLowerCase());

/** A size in bytes: a negative or fractional one says nothing, and is taken as not given. */
const byteSize = looseNumber.transform((n) =>
  n === undefined || !Number.isSafeInteger(n) || n < 0 ? undefined : n,
);

export const exportJobSchema = z.object({
  jobId: identifier,
  // The contract names only jobId in the start answer: a new job is queued.
  status: status.nullish().transform((s) => s ?? 'queued'),
  progress: looseNumber.transform((p) =>
    p === undefined ? undefined : Math.min(100, Math.max(0, p)),
  ),
  pageCount: looseNumber.transform((n) => (n === undefined || n < 0 ? undefined : Math.floor(n))),
  error: optionalText,
  bundleUrl: httpUrl
    .nullish()
    .catch(undefined)
    .transform((v) => v ?? undefined),
  sizeBytes: byteSize,
  expiresAt: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export type ExportJob = z.output<typeof exportJobSchema>;

export const bundleLinkSchema = z.object({
  jobId: identifier.optional().catch(undefined),
  bundleUrl: httpUrl,
  sizeBytes: byteSize,
  expiresAt: timestamp,
});

export type BundleLink = z.output<typeof bundleLinkSchema>;

export const agentJobSchema = z
  .object({
    id: identifier,
    // Absent or null alike: the status is not stated.
    status: status.nullish().transform((v) => v ?? undefined),
    source: z
      .object({ repository: optionalText, ref: optionalText })
      .partial()
      .nullish()
      .catch(undefined)
      .transform((s) => s ?? {}),
    model: optionalText,
    // As the URL parses: markup the server put in it is percent-encoded. One that is no
    // http(s) address is dropped, and `prLinkUnusable` says there was one.
    prLink: z
      .unknown()
      .optional()
      .transform((value) => {
        if (value === null || value === undefined || value === '') return {};
        const parsed = httpUrl.safeParse(value);
        return parsed.success ? { link: parsed.data } : { unusable: true };
      }),
    error: optionalText,
    createdAt: timestamp,
    archivedAt: timestamp,
  })
  // The create and follow-up answers are documented without `status`: the job is taken
  // as active, and `statusStated` says the status is a guess until the job is read.
  .transform(({ status: stated, prLink, ...job }) => ({
    ...job,
    prLink: prLink.link,
    prLinkUnusable: prLink.unusable === true,
    status: stated ?? ('active' as const),
    statusStated: stated !== undefined,
  }));

export type AgentJob = z.output<typeof agentJobSchema>;

/**
 * The answer about a job the caller names (get, follow-up). The vendor's AgentJob schema
 * marks no field as required: an answer without `id` is about the job asked for.
 */
export function agentJobAnswer(id: string) {
  return z.preprocess(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      !('id' in value && value.id != null)
        ? { ...value, id }
        : value,
    agentJobSchema,
  );
}

export const errorBodySchema = z.object({ error: z.string() });

export const EXPORT_FINAL_STATUSES = ['completed', 'failed'] as const;
export const AGENT_FINAL_STATUSES = ['completed', 'archived', 'failed'] as const;
