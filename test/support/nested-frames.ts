/**
 * `<iframe srcdoc>` documents nested `depth` deep, the innermost holding `core(quote)`:
 * each level escapes the one inside it once more, as `&quot;` then `&amp;quot;` and so on.
 * Built level by level in linear time (escaping the whole inner document at each level
 * takes seconds at 1,000 levels, for a 4 MB page).
 */
export function nestedFrames(depth: number, core: (quote: string) => string): string {
  const quote = (k: number) => (k === 0 ? '"' : `&${'amp;'.repeat(k - 1)}quot;`);
  const open = Array.from({ length: depth }, (_, k) => `<iframe srcdoc=${quote(k)}`).join('');
  const close = Array.from({ length: depth }, (_, k) => `${quote(depth - 1 - k)}></iframe>`);
  return open + core(quote(depth)) + close.join('');
}

/** An image from `url`, in a frame document nested `depth` deep. */
export function imageInFrames(depth: number, url: string): string {
  return nestedFrames(depth, (quote) => `<img src=${quote}${url}${quote}>`);
}
