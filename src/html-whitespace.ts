/** Space, tab, line feed, form feed, carriage return: HTML's (ASCII) whitespace, by char code. */
export function isHtmlWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}
