import { urlsInCss } from './css.js';
import { urlsInScript } from './js.js';
import { parseJson, urlsInImportMap } from './json-formats.js';
import { type FoundReference, roleOfAttribute } from './references.js';

/** React prop names of the URL attributes `roleOfAttribute` knows. */
const PROP_ATTRIBUTES: Record<string, string> = {
  href: 'href',
  src: 'src',
  srcSet: 'srcset',
  imageSrcSet: 'imagesrcset',
  poster: 'poster',
  action: 'action',
  formAction: 'formaction',
  data: 'data',
  cite: 'cite',
  xlinkHref: 'xlink:href',
};

type Emit = (reference: FoundReference) => void;

/**
 * The references in React Server Components flight data, the payload a Next.js App
 * Router export embeds in every page (`self.__next_f.push([1, "…"])`) and writes beside
 * it (`page.txt`, `page/__next.*.txt`). Rows are `id:payload` lines; JSON rows hold the
 * element tree as `["$", type, key, props]`, and `:HL[url, as]` rows are preload hints.
 * Elements built by client components (next/script, next/link, next/image) appear here
 * only: `<Script src strategy="afterInteractive">` never reaches the HTML.
 * `offset` of each reference is the offset of its row in `text`.
 */
export function referencesInFlight(text: string): FoundReference[] {
  const found: FoundReference[] = [];
  let position = 0;
  while (position < text.length) {
    const colon = text.indexOf(':', position);
    if (colon < 0) break;
    const id = text.slice(position, colon);
    if (!/^[0-9a-f]*$/i.test(id)) {
      // Not a row start: skip the line.
      const newline = text.indexOf('\n', position);
      position = newline < 0 ? text.length : newline + 1;
      continue;
    }
    const rowStart = position;
    const payloadStart = colon + 1;
    if (text[payloadStart] === 'T') {
      // `T<hex byte length>,<text>`: raw text without a line end.
      const comma = text.indexOf(',', payloadStart);
      const bytes = Number.parseInt(text.slice(payloadStart + 1, comma), 16);
      position =
        comma < 0 || Number.isNaN(bytes) ? text.length : skipUtf8Bytes(text, comma + 1, bytes);
      continue;
    }
    const newline = text.indexOf('\n', payloadStart);
    const end = newline < 0 ? text.length : newline;
    const payload = text.slice(payloadStart, end);
    position = end + 1;
    const emit: Emit = (reference) => found.push({ ...reference, offset: rowStart });
    if (payload.startsWith('HL')) {
      const hint = parseJson(payload.slice(2));
      if (Array.isArray(hint) && typeof hint[0] === 'string')
        emit({ url: hint[0], offset: 0, role: 'load', via: 'RSC preload hint' });
      continue;
    }
    if (/^[A-Z]/.test(payload)) continue;
    const value = parseJson(payload);
    if (value !== undefined) walk(value, emit);
  }
  return found;
}

function skipUtf8Bytes(text: string, from: number, bytes: number): number {
  let remaining = bytes;
  let index = from;
  while (remaining > 0 && index < text.length) {
    const code = text.codePointAt(index) as number;
    remaining -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}

/** Every element in a row's value, in document order; a stack of its own, as JSON nests without limit. */
function walk(root: unknown, emit: Emit): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!Array.isArray(value)) {
      if (value !== null && typeof value === 'object') {
        const children = Object.values(value);
        for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]);
      }
      continue;
    }
    if (
      value[0] === '$' &&
      typeof value[1] === 'string' &&
      value[3] !== null &&
      typeof value[3] === 'object'
    ) {
      element(value[1], value[3] as Record<string, unknown>, emit);
    }
    for (let i = value.length - 1; i >= 0; i -= 1) stack.push(value[i]);
  }
}

function element(type: string, props: Record<string, unknown>, emit: Emit): void {
  // `$L5`: a client component (next/script, next/link, next/image); `div`: a host element.
  const component = type.startsWith('$');
  const strategy = typeof props.strategy === 'string' ? props.strategy : undefined;
  const attributes: Record<string, string> = {};
  for (const [prop, attribute] of Object.entries(PROP_ATTRIBUTES)) {
    if (typeof props[prop] === 'string') attributes[attribute] = props[prop];
  }
  if (typeof props.rel === 'string') attributes.rel = props.rel;
  for (const [attribute, url] of Object.entries(attributes)) {
    if (attribute === 'rel') continue;
    if (component) {
      if (attribute === 'src')
        emit({
          url,
          offset: 0,
          role: 'load',
          via: strategy ? `next/script (${strategy})` : 'component src',
        });
      else if (attribute === 'href') emit({ url, offset: 0, role: 'link', via: 'next/link href' });
      continue;
    }
    const role = roleOfAttribute(type, attribute, attributes);
    if (role) emit({ url, offset: 0, ...role });
  }
  const inner = props.dangerouslySetInnerHTML as { __html?: unknown } | undefined;
  const code =
    typeof inner?.__html === 'string'
      ? inner.__html
      : (component && strategy) || type === 'script'
        ? typeof props.children === 'string'
          ? props.children
          : undefined
        : undefined;
  if (code === undefined) return;
  if (type === 'style') {
    for (const css of urlsInCss(code)) emit({ ...css, offset: 0, role: 'load' });
    return;
  }
  if (type !== 'script' && !(component && strategy)) return;
  const scriptType = typeof props.type === 'string' ? props.type.toLowerCase() : '';
  if (scriptType === 'importmap') {
    for (const url of urlsInImportMap(code))
      emit({ url, offset: 0, role: 'load', via: 'importmap' });
  } else if (scriptType === '' || scriptType === 'module' || scriptType.includes('javascript')) {
    for (const script of urlsInScript(code)) {
      if (script.evidence)
        emit({
          url: script.url,
          offset: 0,
          role: 'load',
          via: `inline script: ${script.evidence}`,
        });
    }
  }
}
