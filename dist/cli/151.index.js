export const id = 151;
export const ids = [151];
export const modules = {

/***/ 7151:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkSiteIsSelfContained: () => (/* binding */ checkSiteIsSelfContained)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(3136);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
;// CONCATENATED MODULE: ./.build/airgap/browser.js







/** Browsers looked for, in order, when no path is given. */
const CANDIDATES = [
    '/usr/bin/chromium-headless-shell',
    '/usr/lib/chromium/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/google-chrome',
];
function findBrowser(env = process.env) {
    const configured = env.STATIC_EXPORT_BROWSER;
    if (configured)
        return (0,external_node_fs_.existsSync)(configured) ? configured : undefined;
    return CANDIDATES.find((candidate) => (0,external_node_fs_.existsSync)(candidate));
}
/**
 * Loads a page of the extracted site in a headless Chromium over file:// with every
 * network request refused, and reports what the page tried to fetch outside the site
 * (and files of the site it could not find). Driven over the DevTools protocol.
 */
async function loadOffline(browser, page, options = {}) {
    const timeoutMs = options.timeoutMs ?? 20_000;
    const settleMs = options.settleMs ?? 750;
    const profile = await promises_.mkdtemp(external_node_path_.join(external_node_os_.tmpdir(), 'static-export-browser-'));
    const child = (0,external_node_child_process_.spawn)(browser, [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        // Nothing resolves: a request that slipped past the interception still fails.
        '--host-resolver-rules=MAP * ~NOTFOUND',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        'about:blank',
    ], 
    // Its own process group, so that the renderer and helper processes go with it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    try {
        const endpoint = await devtoolsEndpoint(child, timeoutMs);
        const session = await openPageSession(endpoint);
        try {
            return await inspectPage(session, (0,external_node_url_.pathToFileURL)(page).href, timeoutMs, settleMs);
        }
        finally {
            session.close();
        }
    }
    finally {
        try {
            if (child.pid !== undefined)
                process.kill(-child.pid, 'SIGKILL');
        }
        catch {
            child.kill('SIGKILL');
        }
        child.stderr?.destroy();
        child.unref();
        await promises_.rm(profile, { recursive: true, force: true }).catch(() => undefined);
    }
}
function devtoolsEndpoint(child, timeoutMs) {
    return new Promise((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error('the browser did not start in time')), timeoutMs);
        child.stderr?.setEncoding('utf8').on('data', (text) => {
            output += text;
            const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
            if (match) {
                clearTimeout(timer);
                resolve(match[1]);
            }
        });
        child.on('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`the browser exited (${code}) before it could be driven: ${output.trim().slice(0, 300)}`));
        });
    });
}
async function openPageSession(browserEndpoint) {
    const { host } = new URL(browserEndpoint);
    const list = await (0,undici/* request */.Em)(`http://${host}/json/list`);
    const targets = (await list.body.json());
    const target = targets.find((t) => t.type === 'page');
    if (!target)
        throw new Error('the browser has no page to drive');
    const socket = new undici/* WebSocket */.kb(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
        socket.addEventListener('open', () => resolve(), { once: true });
        socket.addEventListener('error', () => reject(new Error('could not connect to the browser')), {
            once: true,
        });
    });
    let next = 0;
    const pending = new Map();
    const listeners = [];
    socket.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data));
        if (message.id !== undefined) {
            const waiter = pending.get(message.id);
            pending.delete(message.id);
            if (message.error)
                waiter?.reject(new Error(message.error.message));
            else
                waiter?.resolve(message.result);
            return;
        }
        for (const listener of listeners)
            listener(message);
    });
    return {
        send(method, params = {}) {
            next += 1;
            const id = next;
            socket.send(JSON.stringify({ id, method, params }));
            return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
        },
        on: (listener) => listeners.push(listener),
        close: () => socket.close(),
    };
}
async function inspectPage(session, url, timeoutMs, settleMs) {
    const findings = new Map();
    const requests = new Map();
    let lastActivity = Date.now();
    let loaded = false;
    session.on((message) => {
        const params = message.params ?? {};
        if (message.method === 'Fetch.requestPaused') {
            lastActivity = Date.now();
            const requestUrl = params.request.url;
            const requestId = params.requestId;
            if (/^(file|data|blob|about):/i.test(requestUrl)) {
                void session.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
            }
            else {
                findings.set(requestUrl, { url: requestUrl, kind: 'blocked' });
                void session
                    .send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
                    .catch(() => undefined);
            }
        }
        else if (message.method === 'Network.requestWillBeSent') {
            lastActivity = Date.now();
            requests.set(params.requestId, params.request.url);
        }
        else if (message.method === 'Network.loadingFailed') {
            lastActivity = Date.now();
            const failedUrl = requests.get(params.requestId) ?? '';
            if (failedUrl.startsWith('file:') && /FILE_NOT_FOUND/.test(String(params.errorText))) {
                findings.set(failedUrl, { url: failedUrl, kind: 'missing' });
            }
        }
        else if (message.method === 'Page.loadEventFired') {
            loaded = true;
            lastActivity = Date.now();
        }
    });
    await session.send('Network.enable');
    await session.send('Page.enable');
    await session.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
    await session.send('Page.navigate', { url });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !(loaded && Date.now() - lastActivity >= settleMs)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return [...findings.values()];
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
var Parser = __webpack_require__(1600);
// EXTERNAL MODULE: ./node_modules/acorn/dist/acorn.mjs
var acorn = __webpack_require__(4559);
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
    const blocked = await loadInBrowser(stagingDir, config, reporter, record);
    if (config.deploymentType === 'air-gapped' && (references.length > 0 || blocked > 0)) {
        const what = references.length > 0
            ? verdict
            : `${blocked} request(s) outside the site when index.html loads`;
        throw new errors/* ActionError */.lZ(`The site is not ready for an air-gapped deployment: ${what}. Remove these references from the docs (search, AI assistant and analytics are unavailable there), or accept hosts you serve inside the network with allowed-hosts. path was left as it was.`);
    }
}
/**
 * The optional headless check: index.html loaded over file:// with the network refused.
 * Returns how many requests left the site.
 */
async function loadInBrowser(stagingDir, config, reporter, record) {
    if (config.browserCheck === 'false')
        return 0;
    const index = external_node_path_.join(stagingDir, 'index.html');
    const browser = findBrowser();
    if (!browser || !(0,external_node_fs_.existsSync)(index)) {
        const why = !browser
            ? 'no Chromium found (install chromium-headless-shell, or set STATIC_EXPORT_BROWSER)'
            : 'the site has no index.html';
        if (config.browserCheck === 'true')
            throw new errors/* ActionError */.lZ(`browser-check is true, but ${why}.`);
        reporter.info(`Headless browser check skipped: ${why}.`);
        return 0;
    }
    const findings = await loadOffline(browser, index);
    const shown = (url) => url.startsWith('file:')
        ? external_node_path_.join(config.path, external_node_path_.relative(stagingDir, (0,external_node_url_.fileURLToPath)(url)))
        : url;
    const blocked = findings.filter((f) => f.kind === 'blocked' && !isAllowedHost(externalHost(f.url) ?? '', config.allowedHosts));
    const missing = findings.filter((f) => f.kind === 'missing');
    const line = `Headless browser check (${external_node_path_.basename(browser)}, network refused): index.html made ${blocked.length} request(s) outside the site and ${missing.length} to missing files.`;
    reporter.info(line);
    record.checks = [...(record.checks ?? []), line];
    const annotate = config.deploymentType === 'air-gapped' ? reporter.error : reporter.warning;
    for (const finding of blocked.slice(0, MAX_ANNOTATIONS)) {
        annotate.call(reporter, `Loading index.html requested ${finding.url}, outside the site`, {
            title: 'Request outside the site',
            file: external_node_path_.join(config.path, 'index.html'),
        });
    }
    for (const finding of missing.slice(0, MAX_ANNOTATIONS)) {
        reporter.warning(`Loading index.html requested ${shown(finding.url)}, which the export does not contain`, {
            title: 'Missing file',
            file: external_node_path_.join(config.path, 'index.html'),
        });
    }
    return blocked.length;
}
function countHosts(references) {
    const counts = new Map();
    for (const reference of references)
        counts.set(reference.host, (counts.get(reference.host) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}


/***/ })

};
