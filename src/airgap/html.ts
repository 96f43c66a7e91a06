import { Parser } from 'htmlparser2';
import { urlsInCss } from './css.js';
import { urlStringsInJs } from './js.js';
import type { ReferenceKind } from './references.js';

export interface FoundReference {
  url: string;
  offset: number;
  kind: ReferenceKind;
}

/** Attributes whose value is one URL (HTML, SVG and a few legacy ones). */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'data',
  'cite',
  'background',
  'manifest',
  'longdesc',
  'icon',
  'xlink:href',
  'ping',
  'archive',
  'codebase',
  'lowsrc',
  'dynsrc',
]);
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
const SCRIPT_TYPES =
  /^(|text\/javascript|application\/javascript|module|text\/ecmascript|application\/ecmascript)$/i;

/** The URLs of a `srcset`: comma-separated candidates, each a URL and a descriptor. */
export function srcsetUrls(value: string): string[] {
  return value
    .split(/,(?=\s*\S)/)
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

/** The URL of `<meta http-equiv="refresh" content="5; url=...">`. */
export function refreshUrl(content: string): string | undefined {
  const match = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.+?)\1\s*$/i.exec(content);
  return match && /[^\d\s.;,]/.test(content) ? match[2] : undefined;
}

/**
 * Every URL a page would load or point to, with a real HTML parser: URL attributes,
 * srcset, meta refresh, inline styles, `<style>` and inline `<script>` content.
 */
export function referencesInHtml(source: string): FoundReference[] {
  const found: FoundReference[] = [];
  let rawText: { kind: 'style' | 'script'; start: number; parts: string[] } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const at = parser.startIndex;
        for (const [attribute, value] of Object.entries(attributes)) {
          const key = attribute.toLowerCase();
          if (URL_ATTRIBUTES.has(key)) {
            for (const url of key === 'ping' ? value.split(/\s+/) : [value]) {
              if (url) found.push({ url, offset: at, kind: 'html attribute' });
            }
          } else if (SRCSET_ATTRIBUTES.has(key)) {
            for (const url of srcsetUrls(value)) found.push({ url, offset: at, kind: 'srcset' });
          } else if (key === 'style') {
            for (const css of urlsInCss(value))
              found.push({ url: css.url, offset: at, kind: 'inline style' });
          }
        }
        if (name === 'meta' && attributes['http-equiv']?.toLowerCase() === 'refresh') {
          const url = refreshUrl(attributes.content ?? '');
          if (url) found.push({ url, offset: at, kind: 'meta refresh' });
        }
        if (name === 'style') rawText = { kind: 'style', start: parser.endIndex + 1, parts: [] };
        if (
          name === 'script' &&
          attributes.src === undefined &&
          SCRIPT_TYPES.test(attributes.type ?? '')
        ) {
          rawText = { kind: 'script', start: parser.endIndex + 1, parts: [] };
        }
      },
      ontext(text) {
        rawText?.parts.push(text);
      },
      onclosetag(name) {
        if (rawText && (name === 'style' || name === 'script')) {
          const content = rawText.parts.join('');
          const base = rawText.start;
          if (rawText.kind === 'style') {
            for (const css of urlsInCss(content)) found.push({ ...css, offset: base + css.offset });
          } else {
            for (const js of urlStringsInJs(content)) {
              found.push({ url: js.value, offset: base + js.offset, kind: 'js string' });
            }
          }
          rawText = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.end(source);
  return found;
}
