import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
/** The longest X-Amz-Expires S3 accepts: 7 days. */
export const MAX_EXPIRES_SEC = 604_800;
const REQUIRED = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
] as const;

export interface PresignRequest {
  host: string;
  /** Object path, e.g. /bucket/exports/se_x/docs.example.com.tar.gz */
  path: string;
  signedAt: number;
  expiresSec: number;
}

/** A presigned link that checked out; the caller still compares expiresAt with its clock. */
export interface ValidLink {
  ok: true;
  signedAt: number;
  expiresSec: number;
  expiresAt: number;
}

export interface RejectedLink {
  ok: false;
  status: 400 | 403;
  code: string;
  message: string;
  details: Record<string, string>;
}

/** AWS Signature Version 4 in query-string form, with a secret only this process knows. */
export class QuerySigner {
  readonly accessKeyId = `AKIAEMU${randomBytes(7).toString('hex').toUpperCase()}`;
  private readonly secret = randomBytes(30).toString('base64');

  constructor(private readonly region = 'us-east-1') {}

  /** Path and query string of a presigned GET. */
  presign(request: PresignRequest): string {
    const amzDate = formatAmzDate(request.signedAt);
    const scope = `${amzDate.slice(0, 8)}/${this.region}/${SERVICE}/aws4_request`;
    const query = new URLSearchParams({
      'X-Amz-Algorithm': ALGORITHM,
      'X-Amz-Credential': `${this.accessKeyId}/${scope}`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(request.expiresSec),
      'X-Amz-SignedHeaders': 'host',
    });
    const canonical = canonicalRequest(
      'GET',
      request.path,
      [...query],
      { host: request.host },
      'host',
    );
    const signature = this.sign(amzDate, scope, canonical);
    return `${canonicalUri(request.path)}?${canonicalQuery([...query])}&X-Amz-Signature=${signature}`;
  }

  /**
   * Recomputes the signature exactly as S3 would: the method is part of what was signed, so
   * a link presigned for GET fails the check for HEAD (403 SignatureDoesNotMatch).
   */
  verify(
    method: string,
    path: string,
    query: URLSearchParams,
    headers: Record<string, string | string[] | undefined>,
  ): ValidLink | RejectedLink {
    const missing = REQUIRED.filter((name) => !query.has(name));
    if (missing.length > 0) {
      return reject(
        400,
        'AuthorizationQueryParametersError',
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
      );
    }
    const get = (name: (typeof REQUIRED)[number]): string => query.get(name) ?? '';
    if (get('X-Amz-Algorithm') !== ALGORITHM) {
      return reject(
        400,
        'AuthorizationQueryParametersError',
        `X-Amz-Algorithm only supports "${ALGORITHM}"`,
      );
    }
    const expiresSec = Number(get('X-Amz-Expires'));
    if (!/^\d+$/.test(get('X-Amz-Expires')) || expiresSec < 1 || expiresSec > MAX_EXPIRES_SEC) {
      return reject(
        400,
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be a number of seconds between 1 and 604800',
      );
    }
    const signedAt = parseAmzDate(get('X-Amz-Date'));
    const [accessKeyId, ...scopeParts] = get('X-Amz-Credential').split('/');
    const scope = scopeParts.join('/');
    // A scope date that differs from X-Amz-Date just fails the signature check below.
    if (signedAt === undefined || scopeParts.length !== 4) {
      return reject(
        400,
        'AuthorizationQueryParametersError',
        'Error parsing the X-Amz-Credential parameter',
      );
    }
    if (accessKeyId !== this.accessKeyId) {
      return reject(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
        {
          AWSAccessKeyId: accessKeyId ?? '',
        },
      );
    }
    const signedHeaders = get('X-Amz-SignedHeaders');
    const unsigned = [...query].filter(([name]) => name !== 'X-Amz-Signature');
    const canonical = canonicalRequest(method, path, unsigned, headers, signedHeaders);
    const expected = this.sign(get('X-Amz-Date'), scope, canonical);
    const provided = get('X-Amz-Signature');
    if (!sameHex(expected, provided) || !signedHeaders.split(';').includes('host')) {
      return reject(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
        {
          AWSAccessKeyId: accessKeyId,
          StringToSign: stringToSign(get('X-Amz-Date'), scope, canonical),
          SignatureProvided: provided,
          CanonicalRequest: canonical,
        },
      );
    }
    return { ok: true, signedAt, expiresSec, expiresAt: signedAt + expiresSec * 1000 };
  }

  private sign(amzDate: string, scope: string, canonical: string): string {
    const [date = '', region = '', service = ''] = scope.split('/');
    let key = hmac(`AWS4${this.secret}`, date);
    key = hmac(key, region);
    key = hmac(key, service);
    key = hmac(key, 'aws4_request');
    return createHmac('sha256', key)
      .update(stringToSign(amzDate, scope, canonical))
      .digest('hex');
  }
}

const reject = (
  status: 400 | 403,
  code: string,
  message: string,
  details: Record<string, string> = {},
): RejectedLink => ({ ok: false, status, code, message, details });

const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data).digest();

const sha256Hex = (data: string): string => createHash('sha256').update(data).digest('hex');

const stringToSign = (amzDate: string, scope: string, canonical: string): string =>
  [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join('\n');

/** The SigV4 canonical request; links are presigned for GET. */
function canonicalRequest(
  method: string,
  path: string,
  query: [string, string][],
  headers: Record<string, string | string[] | undefined>,
  signedHeaders: string,
): string {
  const names = signedHeaders.split(';');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  return [
    method,
    canonicalUri(path),
    canonicalQuery(query),
    canonicalHeaders,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
}

/** RFC 3986 encoding, as SigV4 requires (encodeURIComponent leaves !'()* alone). */
const encodeRfc3986 = (text: string): string =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

function canonicalUri(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return encodeRfc3986(decodeURIComponent(segment));
      } catch {
        return segment;
      }
    })
    .join('/');
}

const canonicalQuery = (query: [string, string][]): string =>
  query
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

function sameHex(expected: string, provided: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(provided, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const formatAmzDate = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function parseAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const ms = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 0, h ?? 0, mi ?? 0, s ?? 0);
  return Number.isNaN(ms) ? undefined : ms;
}
