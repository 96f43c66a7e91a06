import { tokenizer, tokTypes } from 'acorn';

export interface FoundString {
  value: string;
  offset: number;
}

const LOOKS_LIKE_URL = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i;

/**
 * String and template literals of a script that hold an absolute URL, found with a
 * JavaScript tokenizer. Scripts it cannot tokenize fall back to quoted URLs.
 */
export function urlStringsInJs(source: string): FoundString[] {
  const found: FoundString[] = [];
  try {
    for (const token of tokenizer(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowHashBang: true,
    })) {
      if (token.type !== tokTypes.string && token.type !== tokTypes.template) continue;
      const raw: unknown = (token as { value?: unknown }).value;
      const value = typeof raw === 'string' ? raw : '';
      if (LOOKS_LIKE_URL.test(value)) found.push({ value: value.trim(), offset: token.start });
    }
    return found;
  } catch {
    return fallback(source);
  }
}

function fallback(source: string): FoundString[] {
  const found: FoundString[] = [];
  for (const match of source.matchAll(/(["'`])((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'`\s\\]+)\1/gi)) {
    found.push({ value: match[2] as string, offset: (match.index ?? 0) + 1 });
  }
  return found;
}
