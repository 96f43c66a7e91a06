/** Space, tab, line feed, form feed, carriage return: HTML's (ASCII) whitespace, by char code. */
export function isHtmlWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

/**
 * `value` without HTML's whitespace at either end, as the HTML standard strips an
 * attribute's URL: a no-break space or an ideographic one (which `trim` drops) stays.
 */
export function withoutHtmlWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHtmlWhitespace(value.charCodeAt(start))) start += 1;
  while (end > start && isHtmlWhitespace(value.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
