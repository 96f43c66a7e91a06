/** Outcome of checking the Authorization header of an API request. */
export type AuthCheck = { ok: true } | { ok: false; status: 401 | 403; error: string };

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Bearer auth with organization keys: the read key may only GET/HEAD; the write key may do all. */
export function checkAuthorization(
  header: string | undefined,
  method: string,
  keys: { write: string; read: string },
): AuthCheck {
  if (header === undefined || header.trim() === '') {
    return deny(401, 'Missing Authorization header: send "Authorization: Bearer mint_<key>"');
  }
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  const key = match?.[1];
  if (key === undefined || !/^mint_[A-Za-z0-9_-]+$/.test(key)) {
    return deny(401, 'Malformed Authorization header: expected "Bearer mint_<key>"');
  }
  if (key === keys.write) return { ok: true };
  if (key !== keys.read) {
    return deny(401, 'Invalid or expired API key: create a new admin API key in the dashboard');
  }
  if (READ_METHODS.has(method)) return { ok: true };
  return deny(
    403,
    `This API key lacks the "write" scope required for ${method} requests: use an admin API key with write scope`,
  );
}

const deny = (status: 401 | 403, error: string): AuthCheck => ({ ok: false, status, error });
