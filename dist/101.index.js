export const id = 101;
export const ids = [101];
export const modules = {

/***/ 46101:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkSiteIsSelfContained: () => (/* binding */ checkSiteIsSelfContained)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(89243);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: ./node_modules/css-tree/lib/tokenizer/index.js + 3 modules
var tokenizer = __webpack_require__(527);
;// CONCATENATED MODULE: ./.build/airgap/css.js

// Token types of css-tree's tokenizer (CSS Syntax Level 3).
const FUNCTION = 2;
const AT_KEYWORD = 3;
const STRING = 5;
const css_URL = 7;
const WHITESPACE = 13;
const COMMENT = 25;
function unquote(text) {
    const quote = text[0];
    const inner = quote === '"' || quote === "'" ? text.slice(1, text.endsWith(quote) ? -1 : undefined) : text;
    return inner.replace(/\\([0-9a-f]{1,6}\s?|.)/gi, (_, escaped) => /^[0-9a-f]/i.test(escaped) ? String.fromCodePoint(Number.parseInt(escaped, 16)) : escaped);
}
/**
 * Every URL a stylesheet would load: `url(...)` in any form, `src(...)`, `image-set`
 * strings and `@import "..."`, found with a CSS tokenizer (not a regular expression),
 * so comments and strings that merely contain "url(" are not mistaken for references.
 */
function urlsInCss(source) {
    const found = [];
    let pending;
    (0,tokenizer/* tokenize */.qw)(source, (type, start, end) => {
        if (type === WHITESPACE || type === COMMENT)
            return;
        const text = source.slice(start, end);
        if (type === css_URL) {
            const inner = text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined).trim();
            found.push({ url: unquote(inner), offset: start, kind: 'css url()' });
            pending = undefined;
            return;
        }
        if (pending && type === STRING) {
            found.push({ url: unquote(text), offset: start, kind: pending.kind });
            pending = undefined;
            return;
        }
        pending = undefined;
        if (type === FUNCTION && /^(url|src)\($/i.test(text))
            pending = { kind: 'css url()' };
        else if (type === AT_KEYWORD && text.toLowerCase() === '@import')
            pending = { kind: 'css @import' };
    });
    return found;
}

// EXTERNAL MODULE: ./node_modules/htmlparser2/dist/Parser.js + 7 modules
var Parser = __webpack_require__(81600);
// EXTERNAL MODULE: ./node_modules/acorn/dist/acorn.mjs
var acorn = __webpack_require__(54559);
;// CONCATENATED MODULE: ./.build/airgap/js.js

const LOOKS_LIKE_URL = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i;
/**
 * String and template literals of a script that hold an absolute URL, found with a
 * JavaScript tokenizer. Scripts it cannot tokenize fall back to quoted URLs.
 */
function urlStringsInJs(source) {
    const found = [];
    try {
        for (const token of (0,acorn/* tokenizer */.OH)(source, {
            ecmaVersion: 'latest',
            sourceType: 'module',
            allowHashBang: true,
        })) {
            if (token.type !== acorn/* tokTypes */.Y_.string && token.type !== acorn/* tokTypes */.Y_.template)
                continue;
            const raw = token.value;
            const value = typeof raw === 'string' ? raw : '';
            if (LOOKS_LIKE_URL.test(value))
                found.push({ value: value.trim(), offset: token.start });
        }
        return found;
    }
    catch {
        return fallback(source);
    }
}
function fallback(source) {
    const found = [];
    for (const match of source.matchAll(/(["'`])((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'`\s\\]+)\1/gi)) {
        found.push({ value: match[2], offset: (match.index ?? 0) + 1 });
    }
    return found;
}

;// CONCATENATED MODULE: ./.build/airgap/html.js



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
const SCRIPT_TYPES = /^(|text\/javascript|application\/javascript|module|text\/ecmascript|application\/ecmascript)$/i;
/** The URLs of a `srcset`: comma-separated candidates, each a URL and a descriptor. */
function srcsetUrls(value) {
    return value
        .split(/,(?=\s*\S)/)
        .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
        .filter((url) => url !== '');
}
/** The URL of `<meta http-equiv="refresh" content="5; url=...">`. */
function refreshUrl(content) {
    const match = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.+?)\1\s*$/i.exec(content);
    return match && /[^\d\s.;,]/.test(content) ? match[2] : undefined;
}
/**
 * Every URL a page would load or point to, with a real HTML parser: URL attributes,
 * srcset, meta refresh, inline styles, `<style>` and inline `<script>` content.
 */
function referencesInHtml(source) {
    const found = [];
    let rawText;
    const parser = new Parser/* Parser */.i({
        onopentag(name, attributes) {
            const at = parser.startIndex;
            for (const [attribute, value] of Object.entries(attributes)) {
                const key = attribute.toLowerCase();
                if (URL_ATTRIBUTES.has(key)) {
                    for (const url of key === 'ping' ? value.split(/\s+/) : [value]) {
                        if (url)
                            found.push({ url, offset: at, kind: 'html attribute' });
                    }
                }
                else if (SRCSET_ATTRIBUTES.has(key)) {
                    for (const url of srcsetUrls(value))
                        found.push({ url, offset: at, kind: 'srcset' });
                }
                else if (key === 'style') {
                    for (const css of urlsInCss(value))
                        found.push({ url: css.url, offset: at, kind: 'inline style' });
                }
            }
            if (name === 'meta' && attributes['http-equiv']?.toLowerCase() === 'refresh') {
                const url = refreshUrl(attributes.content ?? '');
                if (url)
                    found.push({ url, offset: at, kind: 'meta refresh' });
            }
            if (name === 'style')
                rawText = { kind: 'style', start: parser.endIndex + 1, parts: [] };
            if (name === 'script' &&
                attributes.src === undefined &&
                SCRIPT_TYPES.test(attributes.type ?? '')) {
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
                    for (const css of urlsInCss(content))
                        found.push({ ...css, offset: base + css.offset });
                }
                else {
                    for (const js of urlStringsInJs(content)) {
                        found.push({ url: js.value, offset: base + js.offset, kind: 'js string' });
                    }
                }
                rawText = undefined;
            }
        },
    }, { decodeEntities: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true });
    parser.end(source);
    return found;
}

;// CONCATENATED MODULE: ./.build/airgap/references.js
/** Schemes that load or open something over the network. */
const NETWORK_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);
/** Namespace identifiers: they look like URLs but nothing ever fetches them. */
const NAMESPACES = new Set([
    'http://www.w3.org/2000/svg',
    'http://www.w3.org/1999/xhtml',
    'http://www.w3.org/1999/xlink',
    'http://www.w3.org/1998/math/mathml',
    'http://www.w3.org/xml/1998/namespace',
    'http://www.w3.org/2000/xmlns/',
]);
/**
 * The host a reference would reach outside the site, or undefined when it stays inside
 * (relative paths, fragments, data:, mailto:, javascript: and other non-network schemes).
 */
function externalHost(reference) {
    const value = reference.trim();
    if (value === '')
        return undefined;
    if (NAMESPACES.has(value.toLowerCase()))
        return undefined;
    let absolute;
    if (value.startsWith('//'))
        absolute = `https:${value}`;
    else {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
        if (scheme === undefined || !NETWORK_SCHEMES.has(scheme))
            return undefined;
        absolute = value;
    }
    try {
        const url = new URL(absolute);
        return url.host.toLowerCase() || undefined;
    }
    catch {
        // An unparseable absolute URL still points outside; name what follows the slashes.
        return /^[a-z]*:?\/\/([^/?#\s]*)/i.exec(value)?.[1]?.toLowerCase() || '(unparseable host)';
    }
}
/** `cdn.example.com` matches itself; `*.example.com` matches any subdomain of it. */
function isAllowedHost(host, allowed) {
    const bare = host.replace(/:\d+$/, '');
    return allowed.some((pattern) => {
        if (pattern === host || pattern === bare)
            return true;
        if (pattern.startsWith('*.')) {
            const suffix = pattern.slice(1).replace(/:\d+$/, '');
            return bare.endsWith(suffix) && bare.length > suffix.length;
        }
        return false;
    });
}
/** Maps character offsets of a text to 1-based lines and columns. */
class LineIndex {
    #starts = [0];
    constructor(text) {
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1))
            this.#starts.push(i + 1);
    }
    at(offset) {
        let low = 0;
        let high = this.#starts.length - 1;
        while (low < high) {
            const mid = (low + high + 1) >> 1;
            if (this.#starts[mid] <= offset)
                low = mid;
            else
                high = mid - 1;
        }
        return { line: low + 1, column: offset - this.#starts[low] + 1 };
    }
}

;// CONCATENATED MODULE: ./.build/airgap/scan.js






const FINDERS = {
    '.html': referencesInHtml,
    '.htm': referencesInHtml,
    '.xhtml': referencesInHtml,
    '.svg': referencesInHtml,
    '.css': urlsInCss,
    '.js': (source) => urlStringsInJs(source).map((s) => ({
        url: s.value,
        offset: s.offset,
        kind: 'js string',
    })),
    '.mjs': (source) => urlStringsInJs(source).map((s) => ({
        url: s.value,
        offset: s.offset,
        kind: 'js string',
    })),
};
/**
 * Scans an extracted site for references that leave it: what an air-gapped deployment
 * could not load. Hosts in `allowedHosts` are accepted.
 */
async function scanSite(root, allowedHosts) {
    const entries = await (0,promises_.readdir)(root, { recursive: true, withFileTypes: true });
    const references = [];
    let scanned = 0;
    for (const entry of entries) {
        if (!entry.isFile())
            continue;
        const find = FINDERS[external_node_path_.extname(entry.name).toLowerCase()];
        if (!find)
            continue;
        const absolute = external_node_path_.join(entry.parentPath, entry.name);
        const source = await (0,promises_.readFile)(absolute, 'utf8');
        scanned += 1;
        const lines = new LineIndex(source);
        const file = external_node_path_.relative(root, absolute).split(external_node_path_.sep).join('/');
        for (const found of find(source)) {
            const host = externalHost(found.url);
            if (host === undefined || isAllowedHost(host, allowedHosts))
                continue;
            references.push({ file, ...lines.at(found.offset), url: found.url, host, kind: found.kind });
        }
    }
    references.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
    return { scanned, references };
}

;// CONCATENATED MODULE: ./.build/airgap/check.js



/** Annotations beyond this many are summarized: CI logs cap them anyway. */
const MAX_ANNOTATIONS = 50;
/**
 * The readiness check of the deployment table: an air-gapped deployment cannot reach
 * anything outside the site (no search, AI assistant or analytics from the vendor's
 * cloud), so every such reference fails the step; client-hosted ones are warned about.
 * Runs on the staging directory, so a failure leaves `path` untouched.
 */
async function checkSiteIsSelfContained(stagingDir, config, reporter, record) {
    const { scanned, references } = await scanSite(stagingDir, config.allowedHosts);
    const hosts = countHosts(references);
    const allowed = config.allowedHosts.length ? ` (allowed: ${config.allowedHosts.join(', ')})` : '';
    const verdict = references.length === 0
        ? `no reference leaves the site${allowed}`
        : `${references.length} reference(s) to ${hosts.length} host(s) outside the site: ${hosts
            .slice(0, 5)
            .map(([host, count]) => `${host} ×${count}`)
            .join(', ')}${hosts.length > 5 ? ', …' : ''}`;
    const line = `${config.deploymentType} check: scanned ${scanned} HTML, CSS and JavaScript files; ${verdict}.`;
    reporter.info(line);
    record.checks = [...(record.checks ?? []), line];
    record.externalReferences = references;
    if (references.length === 0)
        return;
    const annotate = config.deploymentType === 'air-gapped' ? reporter.error : reporter.warning;
    for (const reference of references.slice(0, MAX_ANNOTATIONS)) {
        annotate.call(reporter, `${reference.url} (${reference.kind}) reaches ${reference.host}, outside the site`, {
            title: 'Reference outside the site',
            file: external_node_path_.join(config.path, ...reference.file.split('/')),
            startLine: reference.line,
            startColumn: reference.column,
        });
    }
    if (references.length > MAX_ANNOTATIONS) {
        reporter.info(`… and ${references.length - MAX_ANNOTATIONS} more, listed in the job summary.`);
    }
    if (config.deploymentType === 'air-gapped') {
        throw new errors/* ActionError */.lZ(`The site is not ready for an air-gapped deployment: ${verdict}. Remove these references from the docs (search, AI assistant and analytics are unavailable there), or accept hosts you serve inside the network with allowed-hosts. path was left as it was.`);
    }
}
function countHosts(references) {
    const counts = new Map();
    for (const reference of references)
        counts.set(reference.host, (counts.get(reference.host) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}


/***/ })

};
