export const id = 413;
export const ids = [413];
export const modules = {

/***/ 1413:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ANNOTATIONS_PER_LEVEL: () => (/* binding */ ANNOTATIONS_PER_LEVEL),
  checkReadiness: () => (/* binding */ checkReadiness),
  describe: () => (/* binding */ describe)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./.build/duration.js
var duration = __webpack_require__(4184);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: ./.build/airgap/site-tree.js
var site_tree = __webpack_require__(9413);
;// CONCATENATED MODULE: ./.build/airgap/serve.js




const CONTENT_TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.htm': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.mjs': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.json': 'application/json',
    '.webmanifest': 'application/manifest+json',
    '.txt': 'text/plain; charset=utf-8',
    '.xml': 'application/xml',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.avif': 'image/avif',
    '.ico': 'image/x-icon',
    '.woff': 'font/woff',
    '.woff2': 'font/woff2',
    '.ttf': 'font/ttf',
    '.wasm': 'application/wasm',
    '.map': 'application/json',
};
/** A `%` that two hex digits do not follow. */
const LONE_PERCENT = /%(?![0-9a-f]{2})/i;
/**
 * Serves an extracted site on a loopback port with the export's URL rules (the file,
 * then `.html` appended, then a directory's index.html; 404.html for the rest), so the
 * browser sees it as a reader on a correctly configured host would. As nginx does, a
 * directory asked for without its trailing slash is a redirect to it (so the index
 * page's relative references resolve inside the directory), and a path that is no
 * percent-encoding a bad request.
 */
async function serveSite(tree) {
    const server = (0,external_node_http_.createServer)((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        if (LONE_PERCENT.test(url.pathname)) {
            response.writeHead(400, { 'content-type': 'text/plain' });
            response.end('bad request');
            return;
        }
        const decoded = (0,site_tree/* decodedUrlPath */.DP)(url.pathname);
        const resolved = decoded !== undefined && (request.method === 'GET' || request.method === 'HEAD')
            ? tree.resolve(decoded)
            : undefined;
        // As decoded: nginx serves `/guides/setup%2F` as the folder's index, with no redirect.
        if (resolved?.rule === 'index' && !decoded?.endsWith('/')) {
            response.writeHead(301, { location: `${url.pathname}/${url.search}` });
            response.end();
            return;
        }
        const send = (file, status) => {
            response.writeHead(status, {
                'content-type': CONTENT_TYPES[external_node_path_.extname(file).toLowerCase()] ?? 'application/octet-stream',
                'cache-control': 'no-store',
            });
            if (request.method === 'HEAD')
                response.end();
            else
                (0,external_node_fs_.createReadStream)(external_node_path_.join(tree.root, ...file.split('/')))
                    .on('error', () => response.destroy())
                    .pipe(response);
        };
        if (resolved) {
            send(resolved.file, 200);
            return;
        }
        if (tree.files.has('404.html'))
            send('404.html', 404);
        else {
            response.writeHead(404, { 'content-type': 'text/plain' });
            response.end('not found');
        }
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address();
    return {
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        }),
    };
}

;// CONCATENATED MODULE: ./.build/airgap/browser.js





/** Browsers looked for, in order, when no path is given (the binaries, not their shell wrappers). */
const CANDIDATES = [
    '/usr/lib/chromium/chromium-headless-shell',
    '/usr/bin/chromium-headless-shell',
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/google-chrome',
];
function findBrowser(env = process.env) {
    const configured = env.STATIC_EXPORT_BROWSER;
    if (configured)
        return (0,external_node_fs_.existsSync)(configured) ? configured : undefined;
    return CANDIDATES.find((candidate) => (0,external_node_fs_.existsSync)(candidate));
}
/** Pages loaded at once (each in its own tab). */
const TABS = 3;
/** The flags Chromium is launched with: headless, quiet, and unable to resolve anything but loopback. */
const LAUNCH_ARGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    // Nothing resolves but loopback: a request that slipped past interception still fails.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
/**
 * Serves the site on loopback with the export's URL rules and loads the given pages in
 * headless Chromium (driven by puppeteer-core), letting their scripts run. Every request
 * that leaves loopback is recorded with the page that made it and aborted; requests for
 * paths of the site that nothing serves are recorded as missing. Honours `signal`.
 */
async function loadPagesInBrowser(tree, options) {
    const pageTimeoutMs = options.pageTimeoutMs ?? 15_000;
    const settleMs = options.settleMs ?? 300;
    const signal = options.signal;
    const result = { pages: [], outside: [], missing: [], failed: [] };
    const server = await serveSite(tree);
    let browser;
    const onAbort = () => void browser?.close().catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
        // Loaded on demand: most runs never get here.
        const { default: puppeteer } = await __webpack_require__.e(/* import() */ 56).then(__webpack_require__.bind(__webpack_require__, 8056));
        if (signal?.aborted)
            throw (0,errors/* abortReason */.Js)(signal);
        browser = await launchBrowser(puppeteer, options.executablePath, pageTimeoutMs);
        if (signal?.aborted)
            throw (0,errors/* abortReason */.Js)(signal);
        const context = await browser.createBrowserContext();
        const seen = new Set();
        const record = (url, page, resourceType) => {
            const key = `${page}\u0000${url}`;
            if (seen.has(key))
                return;
            seen.add(key);
            result.outside.push({ url, page, resourceType });
        };
        const queue = [...options.pages];
        result.pages.push(...queue);
        const worker = async () => {
            const page = await context.newPage();
            let current = '';
            let inFlight = 0;
            let lastActivity;
            await page.setBypassServiceWorker(true);
            await page.setRequestInterception(true);
            page.on('request', (request) => {
                inFlight += 1;
                lastActivity = Date.now();
                const url = request.url();
                if (url.startsWith(`${server.origin}/`) || /^(data|blob|about):/i.test(url)) {
                    void request.continue().catch(() => undefined);
                    return;
                }
                record(url, current, request.resourceType());
                void request.abort('blockedbyclient').catch(() => undefined);
            });
            const settled = () => {
                inFlight = Math.max(0, inFlight - 1);
                lastActivity = Date.now();
            };
            page.on('requestfinished', settled);
            page.on('requestfailed', settled);
            page.on('response', (response) => {
                const url = new URL(response.url());
                const status = response.status();
                if ((status === 404 || status === 400) &&
                    url.origin === server.origin &&
                    url.pathname !== '/favicon.ico')
                    // A path that is no percent-encoding (`100%`) is shown as written.
                    result.missing.push({
                        path: (0,site_tree/* decodedUrlPath */.DP)(url.pathname) ?? url.pathname,
                        page: current,
                    });
            });
            // WebSockets bypass request interception: record them (the resolver rules refuse them).
            const session = await page.createCDPSession();
            await session.send('Network.enable');
            session.on('Network.webSocketCreated', (event) => record(event.url, current, 'websocket'));
            for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
                if (signal?.aborted)
                    throw (0,errors/* abortReason */.Js)(signal);
                current = path;
                inFlight = 0;
                lastActivity = Date.now();
                try {
                    await page.goto((0,site_tree/* pageAddress */.qx)(server.origin, path), {
                        waitUntil: 'load',
                        timeout: pageTimeoutMs,
                    });
                    // Let scripts run: wait until the network has been quiet for settleMs.
                    const until = Date.now() + pageTimeoutMs;
                    while (Date.now() < until && (inFlight > 0 || Date.now() - lastActivity < settleMs)) {
                        if (signal?.aborted)
                            throw (0,errors/* abortReason */.Js)(signal);
                        await (0,promises_.setTimeout)(50);
                    }
                }
                catch (error) {
                    if (signal?.aborted)
                        throw (0,errors/* abortReason */.Js)(signal);
                    result.failed.push({
                        page: path,
                        error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
                    });
                }
            }
            await page.close();
        };
        await Promise.all(Array.from({ length: Math.min(TABS, queue.length) }, worker));
        return result;
    }
    catch (error) {
        throw signal?.aborted ? (0,errors/* abortReason */.Js)(signal) : error;
    }
    finally {
        signal?.removeEventListener('abort', onAbort);
        await browser?.close().catch(() => undefined);
        await server.close();
    }
}
/**
 * Launches Chromium with LAUNCH_ARGS: the old headless shell when that is the binary
 * (chromium-headless-shell), the new headless mode of a full Chromium otherwise.
 */
async function launchBrowser(puppeteer, executablePath, timeoutMs = 15_000) {
    return puppeteer.launch({
        executablePath,
        headless: /headless[-_]shell/.test(executablePath) ? 'shell' : true,
        args: LAUNCH_ARGS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: timeoutMs,
    });
}
/**
 * The home page and up to `count - 1` others: first one per top-level section, then
 * evenly spread over the rest, so a sample sees each part of the site's layout.
 */
function samplePages(pages, count) {
    const candidates = pages.filter((p) => !/(^|\/)(404|_not-found|500)(\.html|\/index\.html)$/.test(p.file));
    const home = candidates.find((p) => p.url === '/');
    const chosen = home ? ['/'] : [];
    const rest = candidates.filter((p) => p.url !== '/');
    const sections = new Set();
    for (const page of rest) {
        if (chosen.length >= count)
            break;
        const section = page.url.split('/')[1] ?? '';
        if (sections.has(section))
            continue;
        sections.add(section);
        chosen.push(page.url);
    }
    const remaining = rest.filter((p) => !chosen.includes(p.url));
    const wanted = count - chosen.length;
    for (let i = 0; i < wanted && remaining.length > 0; i += 1) {
        const pick = remaining[Math.floor((i * remaining.length) / wanted)];
        if (pick && !chosen.includes(pick.url))
            chosen.push(pick.url);
    }
    return chosen;
}

// EXTERNAL MODULE: ./.build/airgap/findings.js
var airgap_findings = __webpack_require__(6201);
// EXTERNAL MODULE: ./.build/deliver/place.js
var place = __webpack_require__(4271);
// EXTERNAL MODULE: ./.build/version.js
var version = __webpack_require__(5922);
;// CONCATENATED MODULE: ./.build/airgap/report-files.js


/** A rule's help, shown with each alert in code scanning: plain, and as Markdown. */
function help(markdown) {
    return { text: markdown.replace(/`/g, ''), markdown };
}
const RULES = [
    {
        id: 'outside-load',
        name: 'LoadOutsideTheSite',
        shortDescription: { text: 'The page loads something from outside the site' },
        fullDescription: {
            text: 'A script, stylesheet, image, frame, font, preconnect or request target on a host outside the site. An air-gapped deployment cannot reach it.',
        },
        help: help('Serve the file from the site itself (self-host the script, stylesheet, font or image, and reference it by a path of the site), or remove the reference. If the network the site is deployed in reaches the host, list it in `allowed-hosts`.'),
    },
    {
        id: 'outside-link',
        name: 'LinkOutsideTheSite',
        shortDescription: { text: 'A link leads outside the site' },
        fullDescription: {
            text: 'An <a href> or form target on a host outside the site: readers who follow it in an air-gapped network reach a dead end.',
        },
        help: help('Point the link at a page of the site, or remove it. If the network the site is deployed in reaches the host, list it in `allowed-hosts`. A link outside the site never fails the step.'),
    },
    {
        id: 'broken-link',
        name: 'BrokenInternalLink',
        shortDescription: { text: 'An internal link resolves to no file of the export' },
        fullDescription: {
            text: 'The link resolves, under the export URL rules (file, file.html, directory/index.html), to no file.',
        },
        help: help('Fix the link, or add the page it names. `broken-links: fail` fails the step on a broken link; `broken-links: off` turns the check off.'),
    },
];
const LEVEL = {
    error: 'error',
    warning: 'warning',
    notice: 'note',
};
/**
 * A relative path as the URI reference SARIF 2.1.0 asks for: each segment
 * percent-encoded, so a space no longer fails upload-sarif's schema check and a `#` or
 * `%` in a file name is not read as a fragment or an escape.
 */
function relativeUri(relativePath) {
    return relativePath.split('/').map(encodeURIComponent).join('/');
}
/**
 * The full report as JSON (every finding, grouped hosts, broken links, serving facts)
 * and as SARIF 2.1.0 for code scanning: one result per URL, within GitHub's limits
 * (`SARIF_LIMITS`), the run's properties counting what is left out. `sitePath` prefixes
 * file locations so that they point into the workspace (`site/index.html`).
 */
async function writeReportFiles(readiness, files) {
    const json = {
        version: 1,
        deploymentType: readiness.deploymentType,
        scanned: readiness.scanned,
        pages: readiness.pages,
        hosts: readiness.hosts,
        findings: readiness.findings,
        findingsNotListed: readiness.findingsDropped,
        metadataReferences: readiness.metadata,
        brokenLinks: {
            checked: readiness.links.checked,
            count: readiness.links.brokenCount,
            list: readiness.links.broken,
        },
        missingFiles: readiness.missingFiles,
        serving: readiness.serving,
        browser: readiness.browser,
    };
    await (0,place/* writeFileAtomic */.Zf)(files.json, `${JSON.stringify(json, null, 2)}\n`, 0o644);
    const location = (file, line, column) => ({
        physicalLocation: {
            artifactLocation: { uri: relativeUri(`${files.sitePath}/${file}`.replace(/^\.\//, '')) },
            ...(line !== undefined
                ? { region: { startLine: line, ...(column !== undefined ? { startColumn: column } : {}) } }
                : {}),
        },
    });
    const listed = sarifResults([
        ...readiness.findings.map((f) => ({
            key: `${f.role}\0${f.severity}\0${f.url}`,
            ruleId: f.role === 'load' ? 'outside-load' : 'outside-link',
            severity: f.severity,
            text: `${f.url} (${f.via}) reaches ${f.host}, outside the site.`,
            location: () => location(f.file, f.line, f.column),
        })),
        ...readiness.links.broken.map((b) => ({
            key: `broken\0${b.url}\0${b.target}`,
            ruleId: 'broken-link',
            severity: readiness.links.severity,
            text: `${b.url} resolves to ${b.target}, which no file of the export serves.`,
            location: () => location(b.file, b.line, b.column),
        })),
    ]);
    const sarif = {
        version: '2.1.0',
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        runs: [
            {
                tool: {
                    driver: {
                        name: 'static-export deployment readiness',
                        semanticVersion: version/* VERSION */.x,
                        rules: RULES,
                    },
                },
                results: listed.results,
                properties: {
                    findings: readiness.findings.length + readiness.links.broken.length,
                    findingsNotListed: listed.findingsLeftOut +
                        readiness.findingsDropped +
                        (readiness.links.brokenCount - readiness.links.broken.length),
                    resultsNotListed: listed.resultsLeftOut,
                    locationsNotListed: listed.locationsLeftOut,
                },
            },
        ],
    };
    await (0,place/* writeFileAtomic */.Zf)(files.sarif, `${JSON.stringify(sarif)}\n`, 0o644);
    return {
        sarifResults: listed.results.length,
        sarifResultsLeftOut: listed.resultsLeftOut,
        sarifFindingsLeftOut: listed.findingsLeftOut,
    };
}
/**
 * GitHub code scanning rejects a run of more than 25,000 results or a result of more than
 * 1,000 locations, keeps 5,000 results (the most severe) and shows 100 locations of each.
 * The locations of all results together are bounded too, to keep the file within the
 * 10 MB an upload may have.
 */
const SARIF_LIMITS = { results: 5_000, locationsPerResult: 100, locations: 50_000 };
const SEVERITY_ORDER = ['error', 'warning', 'notice'];
/**
 * One result per URL (and rule and level) with the places it is found as its locations,
 * errors first, then warnings, then notices, up to GitHub's limits; with how many results,
 * findings and locations were left out.
 */
function sarifResults(entries) {
    const groups = new Map();
    for (const entry of entries) {
        const group = groups.get(entry.key);
        if (group)
            group.push(entry);
        else
            groups.set(entry.key, [entry]);
    }
    const ordered = SEVERITY_ORDER.flatMap((severity) => [...groups.values()].filter((group) => group[0]?.severity === severity));
    const kept = ordered.slice(0, SARIF_LIMITS.results);
    // Every result has its first location; more go to the first results while the budget lasts.
    let spare = SARIF_LIMITS.locations - kept.length;
    let locationsLeftOut = 0;
    const results = kept.map((group) => {
        const first = group[0];
        const more = Math.max(0, Math.min(group.length, SARIF_LIMITS.locationsPerResult) - 1);
        const extra = Math.min(more, Math.max(0, spare));
        spare -= extra;
        const shown = 1 + extra;
        locationsLeftOut += group.length - shown;
        const places = group.length === 1
            ? ''
            : ` Found in ${group.length} places${shown < group.length ? `, the first ${shown} listed` : ''}.`;
        return {
            ruleId: first.ruleId,
            level: LEVEL[first.severity],
            message: { text: `${first.text}${places}` },
            locations: group.slice(0, shown).map((entry) => entry.location()),
        };
    });
    const left = ordered.slice(SARIF_LIMITS.results);
    return {
        results,
        resultsLeftOut: left.length,
        findingsLeftOut: left.reduce((n, group) => n + group.length, 0),
        locationsLeftOut,
    };
}

// EXTERNAL MODULE: ./node_modules/acorn/dist/acorn.mjs
var acorn = __webpack_require__(4559);
// EXTERNAL MODULE: ./node_modules/entities/dist/decode.js + 2 modules
var decode = __webpack_require__(7031);
// EXTERNAL MODULE: ./node_modules/htmlparser2/dist/Tokenizer.js
var Tokenizer = __webpack_require__(5455);
// EXTERNAL MODULE: ./node_modules/htmlparser2/dist/Parser.js
var Parser = __webpack_require__(5867);
// EXTERNAL MODULE: ./.build/html-whitespace.js
var html_whitespace = __webpack_require__(143);
// EXTERNAL MODULE: ./node_modules/css-tree/lib/tokenizer/index.js + 3 modules
var tokenizer = __webpack_require__(527);
;// CONCATENATED MODULE: ./.build/airgap/data-urls.js
/**
 * A `data:` URL holds its document in itself: a frame, a stylesheet or a script loaded
 * from one loads what that document references. Payloads past this many characters are
 * not read (a page's attribute holds them whole already; this bounds the decoded copy).
 */
const MAX_DATA_URL_CHARS = 4 * 1024 * 1024;
const DATA_URL = /^[\t\n\f\r ]*data:/i;
function isDataUrl(url) {
    return DATA_URL.test(url);
}
/**
 * The payload of a `data:` URL as text (percent-decoded, or base64-decoded, as UTF-8), with
 * its MIME type (`text/plain` when none is given, as the Fetch standard reads it); undefined
 * for another URL, one without a comma, or one past MAX_DATA_URL_CHARS.
 */
function dataUrlPayload(url) {
    if (url.length > MAX_DATA_URL_CHARS || !isDataUrl(url))
        return undefined;
    const start = url.indexOf(':') + 1;
    const comma = url.indexOf(',', start);
    if (comma < 0)
        return undefined;
    const header = url.slice(start, comma).replace(/[\t\n\r]/g, '');
    const base64 = /;[ ]*base64[ ]*$/i.test(header);
    const mediaType = (base64 ? header.replace(/;[ ]*base64[ ]*$/i, '') : header)
        .split(';')[0]
        ?.trim()
        .toLowerCase();
    const bytes = percentDecoded(url.slice(comma + 1));
    const text = base64
        ? Buffer.from(bytes.toString('latin1').replace(/[\t\n\f\r ]/g, ''), 'base64').toString('utf8')
        : bytes.toString('utf8');
    return { type: mediaType || 'text/plain', text };
}
/** `%41` is `A`; a `%` not followed by two hex digits stays itself (the URL standard's percent-decode). */
function percentDecoded(body) {
    const raw = Buffer.from(body, 'utf8');
    if (!body.includes('%'))
        return raw;
    const out = Buffer.alloc(raw.length);
    let length = 0;
    for (let i = 0; i < raw.length; i += 1) {
        const pair = raw[i] === 0x25 ? raw.toString('latin1', i + 1, i + 3) : '';
        if (/^[0-9a-f]{2}$/i.test(pair)) {
            out[length++] = Number.parseInt(pair, 16);
            i += 2;
        }
        else
            out[length++] = raw[i];
    }
    return out.subarray(0, length);
}
/** MIME types a frame, an `<object>` or an `<embed>` renders as a document whose references load. */
const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml']);
/** MIME types a classic `<script src>` refuses to run (Chromium's list); it runs any other. */
const NOT_SCRIPT_TYPES = /^(?:image|audio|video)\/|^text\/csv$/;

;// CONCATENATED MODULE: ./.build/airgap/css.js

// CSS's whitespace is HTML's: space, tab, line feed, form feed, carriage return.


// Token types of css-tree's tokenizer (CSS Syntax Level 3).
const FUNCTION = 2;
const AT_KEYWORD = 3;
const STRING = 5;
const css_URL = 7;
const WHITESPACE = 13;
const LEFT_PARENTHESIS = 21;
const RIGHT_PARENTHESIS = 22;
const COMMENT = 25;
const IMAGE_SET = /^(?:-webkit-)?image-set\($/i;
/**
 * An escape as CSS Syntax reads it: up to six hex digits and one whitespace after them,
 * a line break (in a string, a line continued: nothing), or any other character as itself.
 */
const ESCAPE = /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([\s\S]))/gi;
const REPLACEMENT_CHARACTER = '\uFFFD';
/** Text with its escapes decoded: an identifier's, a string's or a url()'s. */
function decodeEscapes(text) {
    if (!text.includes('\\'))
        return text;
    return text.replace(ESCAPE, (_, hex, lineBreak, character) => {
        if (hex === undefined)
            return lineBreak !== undefined ? '' : character;
        const code = Number.parseInt(hex, 16);
        // Zero, a surrogate or past Unicode's last code point is U+FFFD, as browsers read it.
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
            ? REPLACEMENT_CHARACTER
            : String.fromCodePoint(code);
    });
}
function unquote(text) {
    const quote = text[0];
    const inner = quote === '"' || quote === "'" ? text.slice(1, text.endsWith(quote) ? -1 : undefined) : text;
    return decodeEscapes(inner);
}
/** Thrown from the tokenizer's callback to stop it where it stands. */
const RESUME = new Error('read again from the end of an escaped url()');
/** How many `@import` of a `data:` stylesheet inside one another are read. */
const MAX_DATA_IMPORT_DEPTH = 4;
/**
 * Every URL a stylesheet would load: `url(...)` in any form, `src(...)`, `image-set`
 * strings and `@import "..."`, found with a CSS tokenizer (not a regular expression),
 * so comments and strings that merely contain "url(" are not mistaken for references.
 * What a stylesheet imported from a `data:` URL loads is read too, at the `@import`.
 */
function urlsInCss(source, depth = 0) {
    const found = urlsInOneSheet(source);
    if (!found.some((f) => f.imported && isDataUrl(f.url)))
        return found;
    return found.flatMap((f) => {
        const payload = f.imported ? dataUrlPayload(f.url) : undefined;
        if (payload?.type !== 'text/css' || depth >= MAX_DATA_IMPORT_DEPTH)
            return [f];
        const imported = urlsInCss(payload.text, depth + 1).map((inner) => ({
            url: inner.url,
            offset: f.offset,
            via: `css @import (data:) ${inner.via}`,
        }));
        return [f, ...imported];
    });
}
function urlsInOneSheet(source) {
    const found = [];
    let pending;
    /** Inside `@namespace … ;`: its url() or string names a namespace and is never fetched (CSS Namespaces 3). */
    let inNamespace = false;
    /** The blocks open, by whether each is an `image-set(`, whose own strings are URLs (not those of `type()` inside it). */
    const blocks = [];
    /** Where the text the tokenizer reads starts in `source`. */
    let from = 0;
    /** Where to read again from, past a url() the tokenizer cannot read. */
    let resume = 0;
    /** After `@import`, up to the URL it names. */
    let importing = false;
    const push = (url, offset, via) => {
        found.push({ url, offset, via, ...(importing ? { imported: true } : {}) });
        importing = false;
    };
    const read = (type, tokenStart, tokenEnd) => {
        if (type === WHITESPACE || type === COMMENT)
            return;
        const start = from + tokenStart;
        const end = from + tokenEnd;
        const text = source.slice(start, end);
        // A name as a browser reads it: `@\69mport` is @import and `u\72l(…)` is url(…),
        // decoded before it is looked at.
        const name = (type === FUNCTION || type === AT_KEYWORD) && text.includes('\\')
            ? decodeEscapes(text)
            : text;
        if (inNamespace) {
            if (text === ';' || text === '{' || text === '}')
                inNamespace = false;
            return;
        }
        if (type === AT_KEYWORD && name.toLowerCase() === '@namespace') {
            inNamespace = true;
            pending = undefined;
            return;
        }
        // The tokenizer only knows `url(` as written: after an escaped one it reads an
        // unquoted URL as other tokens, where a quote or a comment runs past its `)`. The URL
        // is read here, and the tokenizer starts again after it.
        if (type === FUNCTION && name !== text && name.toLowerCase() === 'url(') {
            const inner = source.slice(end).match(/^[ \t\n\r\f]*(["']?)/);
            if (inner[1] === '') {
                const close = unescapedParenthesis(source, end);
                const url = unquotedUrl(source.slice(end, close));
                if (url !== undefined)
                    push(url, start, 'css url()');
                pending = undefined;
                resume = Math.min(close + 1, source.length);
                throw RESUME;
            }
        }
        if (type === FUNCTION || type === LEFT_PARENTHESIS)
            blocks.push(type === FUNCTION && IMAGE_SET.test(name));
        else if (type === RIGHT_PARENTHESIS)
            blocks.pop();
        else if (type === STRING && !pending && blocks[blocks.length - 1] === true) {
            found.push({ url: unquote(text), offset: start, via: 'css image-set()' });
            return;
        }
        if (type === css_URL) {
            const inner = text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined).trim();
            push(unquote(inner), start, 'css url()');
            pending = undefined;
            return;
        }
        if (pending && type === STRING) {
            push(unquote(text), start, pending.via);
            pending = undefined;
            return;
        }
        pending = undefined;
        if (type === FUNCTION && /^(url|src)\($/i.test(name))
            pending = { via: 'css url()' };
        else if (type === AT_KEYWORD && name.toLowerCase() === '@import') {
            pending = { via: 'css @import' };
            importing = true;
        }
        else
            importing = false;
    };
    do {
        from = resume;
        try {
            (0,tokenizer/* tokenize */.qw)(from === 0 ? source : source.slice(from), read);
        }
        catch (err) {
            if (err !== RESUME)
                throw err;
        }
    } while (resume > from);
    return found;
}
/** Where the unquoted URL from `from` ends: its first `)` that no backslash escapes, or the end. */
function unescapedParenthesis(source, from) {
    for (let i = from; i < source.length; i += 1) {
        const c = source.charCodeAt(i);
        if (c === 0x5c /* \\ */)
            i += 1;
        else if (c === 0x29 /* ) */)
            return i;
    }
    return source.length;
}
/** A character that makes an unquoted url() bad: a quote, `(`, or a control character. */
const breaksUrl = (c) => c === 0x22 ||
    c === 0x27 ||
    c === 0x28 ||
    c <= 0x08 ||
    c === 0x0b ||
    (c >= 0x0e && c <= 0x1f) ||
    c === 0x7f;
/**
 * The URL of an unquoted url() from its inside, or undefined for a bad one that loads
 * nothing: a quote, `(`, whitespace or a control character inside it, or a backslash
 * before a line break (CSS Syntax, "consume a url token").
 */
function unquotedUrl(inside) {
    let first = 0;
    let last = inside.length;
    while (first < last && (0,html_whitespace/* isHtmlWhitespace */.f)(inside.charCodeAt(first)))
        first += 1;
    while (last > first && (0,html_whitespace/* isHtmlWhitespace */.f)(inside.charCodeAt(last - 1)))
        last -= 1;
    const written = inside.slice(first, last);
    for (let i = 0; i < written.length; i += 1) {
        const c = written.charCodeAt(i);
        if (c === 0x5c /* \\ */) {
            const next = written.charCodeAt(i + 1);
            if (next === 0x0a || next === 0x0c || next === 0x0d)
                return undefined;
            // Hex digits and the one whitespace that ends them (CR LF is one) are the escape's own.
            const escape = /^\\(?:[0-9a-f]{1,6}(?:\r\n|[ \t\n\r\f])?|[\s\S])/i.exec(written.slice(i, i + 9));
            i += (escape?.[0].length ?? 1) - 1;
        }
        else if ((0,html_whitespace/* isHtmlWhitespace */.f)(c) || breaksUrl(c))
            return undefined;
    }
    return decodeEscapes(written);
}

// EXTERNAL MODULE: ./.build/airgap/references.js
var references = __webpack_require__(8809);
;// CONCATENATED MODULE: ./.build/airgap/sdk-hosts.js

/**
 * Hosts (and, where the same host also serves pages people link to, paths) of analytics,
 * chat, search, font, embed and CDN services: a URL string naming one of them in a script
 * is loaded by that script (their snippets build the final URL at run time, so no call
 * site holds the literal). `host` matches itself or a subdomain; `host/path` also needs
 * the URL's path to start with `/path`. A whole domain is listed only when it serves
 * nothing a reader is linked to: `youtube.com/@acme` and `docs.sentry.io` are links.
 */
const SDK_HOSTS = [
    // Analytics and tag managers
    'googletagmanager.com',
    'google-analytics.com',
    'analytics.google.com',
    'doubleclick.net',
    'cdn.segment.com',
    'segment.io',
    'i.posthog.com',
    'app.posthog.com',
    'eu.posthog.com',
    'api-js.mixpanel.com',
    'api.mixpanel.com',
    'api-eu.mixpanel.com',
    'mxpnl.com',
    'cdn.amplitude.com',
    'api.amplitude.com',
    'api2.amplitude.com',
    'api.eu.amplitude.com',
    'heap-api.com',
    'heapanalytics.com',
    'edge.fullstory.com',
    'rs.fullstory.com',
    'static.hotjar.com',
    'script.hotjar.com',
    'vars.hotjar.com',
    'hotjar.io',
    'plausible.io/js/',
    'plausible.io/api/',
    'cdn.usefathom.com',
    'clarity.ms',
    'cloudflareinsights.com',
    'ingest.sentry.io',
    'ingest.us.sentry.io',
    'ingest.de.sentry.io',
    'sentry-cdn.com',
    'hs-scripts.com',
    'hs-analytics.net',
    'hsforms.net',
    'koala.live',
    'june.so',
    // Chat and support widgets
    'intercom.io',
    'intercomcdn.com',
    'client.crisp.chat',
    'zdassets.com',
    'zopim.com',
    'driftt.com',
    'frontapp.com',
    'widget.kapa.ai',
    'proxy.kapa.ai',
    'api.inkeep.com',
    // Search
    'algolia.net',
    'algolianet.com',
    'algolia.io',
    'typesense.net',
    // Fonts and CDNs
    'fonts.googleapis.com',
    'fonts.gstatic.com',
    'use.typekit.net',
    'cdn.jsdelivr.net',
    'unpkg.com',
    'esm.sh',
    'cdnjs.cloudflare.com',
    'cdn.skypack.dev',
    'ga.jspm.io',
    // Embeds: YouTube's player, not its channel and video pages
    'youtube.com/embed/',
    'youtube.com/iframe_api',
    'youtube.com/player_api',
    'youtube.com/s/',
    'youtube-nocookie.com',
    'ytimg.com',
    'player.vimeo.com',
    'js.stripe.com',
];
const KNOWN = SDK_HOSTS.map((entry) => {
    const slash = entry.indexOf('/');
    return slash < 0
        ? { host: entry, path: undefined }
        : { host: entry.slice(0, slash), path: entry.slice(slash) };
});
/** The path of `url` (`https://host/…`, `//host/…` or `\\host/…`, read as a browser reads it). */
function pathOf(url) {
    try {
        return new URL(url, references/* SITE_ORIGIN */.t_).pathname;
    }
    catch {
        return '';
    }
}
/** Whether `url`, whose host is `host`, is one an SDK on the list requests. */
function isSdkUrl(url, host) {
    const bare = host.replace(/:\d+$/, '').replace(/\.$/, '');
    let path;
    return KNOWN.some((known) => {
        if (bare !== known.host && !bare.endsWith(`.${known.host}`))
            return false;
        if (known.path === undefined)
            return true;
        path ??= pathOf(url);
        return path.startsWith(known.path);
    });
}

;// CONCATENATED MODULE: ./.build/airgap/js.js




/** Calls whose first argument is requested: `fetch("…")`, `new WebSocket("…")`, `import("…")`. */
const REQUESTING_CALLS = new Set([
    'fetch',
    'importScripts',
    'sendBeacon',
    'WebSocket',
    'EventSource',
    'Worker',
    'SharedWorker',
    'register',
    'loadScript',
    'getScript',
    'import',
    'Request',
    // `new Audio("…")` fetches its source at once (preload is `auto`), played or not.
    'Audio',
]);
/** Style properties a script sets to CSS that loads what its `url()` names. */
const LOADING_STYLE_PROPERTIES = new Set([
    'background',
    'backgroundImage',
    'borderImage',
    'borderImageSource',
    'content',
    'cssText',
    'cursor',
    'listStyle',
    'listStyleImage',
    'mask',
    'maskImage',
]);
/**
 * `rel` values (and the element name) that make an `href` a load: `l.rel = "stylesheet";
 * l.href = "…"`, `{ rel: "preconnect", href: "…" }` in a head config.
 */
const LOADING_LINK_HINTS = new Set([
    'link',
    'stylesheet',
    'preconnect',
    'preload',
    'modulepreload',
    'prefetch',
    'dns-prefetch',
    'icon',
    'manifest',
]);
/** Keys beside `url` that make an object a link (`{ label: "YouTube", url: "…" }`). */
const LINK_LABEL_KEYS = new Set(['label', 'title', 'text', 'children', 'name', 'icon']);
/** Tokens after a link's URL in which a loading `rel` or a label key still counts. */
const LINK_LOOKAHEAD = 8;
/** `https://host`, `//host`, and the backslashes browsers read as slashes (`'\\\\host/…'`). */
const LOOKS_LIKE_URL = /^\s*(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}[^/\\\s]/i;
function seen(token) {
    const value = token.value;
    return { label: token.type.label, value: typeof value === 'string' ? value : '' };
}
/** Why the string after these tokens is requested, or undefined (newest token last). */
function evidenceFrom(before) {
    const at = (back) => before[before.length - back];
    const one = at(1);
    const two = at(2);
    if (!one)
        return undefined;
    if (one.label === '(' && two && (two.label === 'name' || two.label === 'import')) {
        const callee = two.label === 'import' ? 'import' : two.value;
        if (REQUESTING_CALLS.has(callee))
            return `${callee}()`;
    }
    // xhr.open("GET", "…") and el.setAttribute("src", "…")
    if (one.label === ',' && two?.label === 'string' && at(3)?.label === '(') {
        const callee = at(4)?.value;
        if (callee === 'open')
            return 'XMLHttpRequest.open()';
        if (callee === 'setAttribute' && two.value === 'src')
            return 'setAttribute("src")';
    }
    if (one.label === '=' && two?.value === 'src' && at(3)?.label === '.')
        return '.src =';
    if (one.label === ':' && two?.value === 'src' && (two.label === 'name' || two.label === 'string'))
        return '{ src: … }';
    if ((one.label === 'name' && one.value === 'from') || one.label === 'import')
        return 'import';
    return undefined;
}
/**
 * How the string after these tokens is used as a link's address, or undefined: `href`
 * (`{ href: "…" }`, `{ link: "…" }`, `a.href = "…"`, `setAttribute("href", "…")`) or
 * `url` (`{ url: "…" }`, a link only beside a label).
 */
function linkContextFrom(before) {
    const at = (back) => before[before.length - back];
    const [one, two, three] = [at(1), at(2), at(3)];
    if (one?.label === ':' && (two?.label === 'name' || two?.label === 'string')) {
        if (two.value === 'href' || two.value === 'link')
            return 'href';
        if (two.value === 'url')
            return 'url';
    }
    if (one?.label === '=' && two?.value === 'href' && three?.label === '.')
        return 'href';
    if (one?.label === ',' && two?.label === 'string' && two.value === 'href' && three?.label === '(')
        return at(4)?.value === 'setAttribute' ? 'href' : undefined;
    return undefined;
}
/** Whether a pending link stays a load: a loading `rel` beside it, or a `url` with no label. */
function settle(link) {
    const isLink = !link.loadingHint && (link.context === 'href' || link.labelled);
    if (isLink)
        delete link.found.evidence;
}
/**
 * URL strings of a script that name a real host, each with the evidence that the browser
 * requests it: a requesting call or property (`fetch("…")`, `script.src = "…"`, `import`),
 * or a known SDK host. Strings without evidence (error-documentation links, dummy bases
 * such as `http://a.com`, bare `//`) come back without it: they are not loads.
 */
function urlsInScript(source) {
    // `"https:\/\/…"` (JSON written by a server-side encoder) holds its slashes escaped, and
    // `"\\\\host/…"` its backslashes, which browsers read as slashes.
    if (!source.includes('//') && !source.includes('\\/') && !source.includes('\\\\'))
        return [];
    try {
        return tokenUrls(source, 'module');
    }
    catch {
        // A classic script may use what a module may not (`"\251"`, `010`): read it as one.
        try {
            return tokenUrls(source, 'script');
        }
        catch {
            return fallback(source);
        }
    }
}
/**
 * Why the CSS in the string after these tokens is applied, so that its `url()` loads:
 * `el.style.backgroundImage = "url(…)"`, `new FontFace("…", "url(…)")`; undefined
 * otherwise. CSS shown as text, in a page's data, loads nothing; nor does a custom
 * property a script sets (`style.setProperty("--icon", "url(…)")`) until a style uses it:
 * VitePress's theme sets one to an icon service only when the icon's own CSS is missing.
 */
function cssEvidenceFrom(before) {
    const at = (back) => before[before.length - back];
    const [one, two, three] = [at(1), at(2), at(3)];
    if (one?.label === '=' && two?.label === 'name' && three?.label === '.')
        return LOADING_STYLE_PROPERTIES.has(two.value) ? `.${two.value} =` : undefined;
    if (one?.label === ',' && two?.label === 'string' && three?.label === '(') {
        const callee = at(4)?.value;
        if (callee === 'FontFace')
            return 'FontFace()';
    }
    return undefined;
}
function tokenUrls(source, sourceType) {
    const found = [];
    const before = [];
    let pending = [];
    for (const token of (0,acorn/* tokenizer */.OH)(source, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
    })) {
        const current = seen(token);
        if (pending.length > 0)
            pending = watchPending(pending, current);
        if (token.type === acorn/* tokTypes */.Y_.string || token.type === acorn/* tokTypes */.Y_.template) {
            // What comes before a template's text is what comes before its opening backquote.
            const context = before.at(-1)?.label === '`' ? before.slice(0, -1) : before;
            if (LOOKS_LIKE_URL.test(current.value)) {
                const url = current.value.trim();
                const host = (0,references/* externalHost */.K8)(url);
                if (host !== undefined && (0,references/* isRealHost */.BV)(host)) {
                    const evidence = evidenceFrom(context);
                    const sdk = evidence === undefined && isSdkUrl(url, host);
                    const item = { url, offset: token.start };
                    if (evidence !== undefined || sdk)
                        item.evidence = evidence ?? 'SDK host';
                    found.push(item);
                    const link = sdk ? linkContextFrom(context) : undefined;
                    if (link !== undefined)
                        pending.push(pendingLink(item, link, context));
                }
            }
            else if (/url\(/i.test(current.value)) {
                const evidence = cssEvidenceFrom(context);
                for (const { url } of evidence === undefined ? [] : urlsInCss(current.value)) {
                    const host = (0,references/* externalHost */.K8)(url);
                    if (host !== undefined && (0,references/* isRealHost */.BV)(host))
                        found.push({ url, offset: token.start, evidence: `${evidence} url()` });
                }
            }
        }
        before.push(current);
        if (before.length > 8)
            before.shift();
    }
    for (const link of pending)
        settle(link);
    return found;
}
function pendingLink(found, context, before) {
    const link = {
        found,
        context,
        remaining: LINK_LOOKAHEAD,
        loadingHint: false,
        labelled: false,
    };
    for (let i = before.length - 1; i >= 0; i -= 1) {
        const token = before[i];
        if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value))
            link.loadingHint = true;
        if (token.label === '{')
            break;
        if (LINK_LABEL_KEYS.has(token.value))
            link.labelled = true;
    }
    return link;
}
/** Notes what a token says about each pending link; settles those whose object or window ended. */
function watchPending(pending, token) {
    return pending.filter((link) => {
        if (token.label === 'string' && LOADING_LINK_HINTS.has(token.value))
            link.loadingHint = true;
        if ((token.label === 'name' || token.label === 'string') && LINK_LABEL_KEYS.has(token.value))
            link.labelled = true;
        link.remaining -= 1;
        const ended = link.remaining <= 0 || token.label === '}' || token.label === ';';
        if (ended)
            settle(link);
        return !ended;
    });
}
/** A script the tokenizer cannot read: quoted URLs, counted as loads only for SDK hosts. */
function fallback(source) {
    const found = [];
    for (const match of source.matchAll(/(["'`])((?:[a-z][a-z0-9+.-]*:)?\/\/[^"'`\s\\]+)\1/gi)) {
        const url = match[2];
        const host = (0,references/* externalHost */.K8)(url);
        if (host === undefined || !(0,references/* isRealHost */.BV)(host))
            continue;
        const index = match.index ?? 0;
        const asLink = /\b(?:href|link)["']?\s*[:=]\s*$/.test(source.slice(Math.max(0, index - 12), index));
        found.push({
            url,
            offset: index + 1,
            ...(!asLink && isSdkUrl(url, host) ? { evidence: 'SDK host' } : {}),
        });
    }
    return found;
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
;// CONCATENATED MODULE: ./.build/airgap/json-formats.js

const importMap = schemas/* object */.Ikc({
    imports: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* string */.YjP()).optional(),
    scopes: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* string */.YjP())).optional(),
});
/** The module URLs of a `<script type="importmap">`: what `import "name"` loads. */
function urlsInImportMap(source) {
    const parsed = importMap.safeParse(parseJson(source));
    if (!parsed.success)
        return [];
    const { imports = {}, scopes = {} } = parsed.data;
    return [...Object.values(imports), ...Object.values(scopes).flatMap((s) => Object.values(s))];
}
const manifestImage = schemas/* object */.Ikc({ src: schemas/* string */.YjP() }).passthrough();
const webManifest = schemas/* object */.Ikc({
    start_url: schemas/* string */.YjP().optional(),
    scope: schemas/* string */.YjP().optional(),
    icons: schemas/* array */.YOg(manifestImage).optional(),
    screenshots: schemas/* array */.YOg(manifestImage).optional(),
    shortcuts: schemas/* array */.YOg(schemas/* object */.Ikc({ url: schemas/* string */.YjP().optional(), icons: schemas/* array */.YOg(manifestImage).optional() }))
        .optional(),
    related_applications: schemas/* array */.YOg(schemas/* object */.Ikc({ url: schemas/* string */.YjP().optional() })).optional(),
})
    .passthrough();
/**
 * The references of a web app manifest: icons and screenshots are fetched by the
 * browser; `start_url`, `scope` and shortcuts are where an installed app navigates;
 * related applications are store listings nobody loads. Offsets point at the URL text.
 */
function referencesInWebManifest(source) {
    const parsed = webManifest.safeParse(parseJson(source));
    if (!parsed.success)
        return [];
    const manifest = parsed.data;
    const found = [];
    const add = (url, role, via) => {
        if (url === undefined)
            return;
        const at = source.indexOf(JSON.stringify(url).slice(1, -1));
        found.push({ url, offset: Math.max(0, at), role, via });
    };
    for (const icon of manifest.icons ?? [])
        add(icon.src, 'load', 'manifest icons');
    for (const shot of manifest.screenshots ?? [])
        add(shot.src, 'load', 'manifest screenshots');
    for (const shortcut of manifest.shortcuts ?? []) {
        add(shortcut.url, 'link', 'manifest shortcuts');
        for (const icon of shortcut.icons ?? [])
            add(icon.src, 'load', 'manifest icons');
    }
    add(manifest.start_url, 'link', 'manifest start_url');
    add(manifest.scope, 'link', 'manifest scope');
    for (const app of manifest.related_applications ?? [])
        add(app.url, 'metadata', 'manifest related_applications');
    return found;
}
/** The value of a JSON text, or undefined when it is not JSON. */
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./.build/airgap/flight.js




/** React prop names of the URL attributes `roleOfAttribute` knows. */
const PROP_ATTRIBUTES = {
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
/**
 * The references in React Server Components flight data, the payload a Next.js App
 * Router export embeds in every page (`self.__next_f.push([1, "…"])`) and writes beside
 * it (`page.txt`, `page/__next.*.txt`). Rows are `id:payload` lines; JSON rows hold the
 * element tree as `["$", type, key, props]`, and `:HL[url, as]` rows are preload hints.
 * Elements built by client components (next/script, next/link, next/image) appear here
 * only: `<Script src strategy="afterInteractive">` never reaches the HTML.
 * `offset` of each reference is the offset of its row in `text`.
 */
function referencesInFlight(text) {
    const found = [];
    let position = 0;
    while (position < text.length) {
        const colon = text.indexOf(':', position);
        if (colon < 0)
            break;
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
        const emit = (reference) => found.push({ ...reference, offset: rowStart });
        if (payload.startsWith('HL')) {
            const hint = parseJson(payload.slice(2));
            if (Array.isArray(hint) && typeof hint[0] === 'string')
                emit({ url: hint[0], offset: 0, role: 'load', via: 'RSC preload hint' });
            continue;
        }
        if (/^[A-Z]/.test(payload))
            continue;
        const value = parseJson(payload);
        if (value !== undefined)
            walk(value, emit);
    }
    return found;
}
function skipUtf8Bytes(text, from, bytes) {
    let remaining = bytes;
    let index = from;
    while (remaining > 0 && index < text.length) {
        const code = text.codePointAt(index);
        remaining -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        index += code >= 0x10000 ? 2 : 1;
    }
    return index;
}
/** Every element in a row's value, in document order; a stack of its own, as JSON nests without limit. */
function walk(root, emit) {
    const stack = [root];
    while (stack.length > 0) {
        const value = stack.pop();
        if (!Array.isArray(value)) {
            if (value !== null && typeof value === 'object') {
                const children = Object.values(value);
                for (let i = children.length - 1; i >= 0; i -= 1)
                    stack.push(children[i]);
            }
            continue;
        }
        if (value[0] === '$' &&
            typeof value[1] === 'string' &&
            value[3] !== null &&
            typeof value[3] === 'object') {
            flight_element(value[1], value[3], emit);
        }
        for (let i = value.length - 1; i >= 0; i -= 1)
            stack.push(value[i]);
    }
}
function flight_element(type, props, emit) {
    // `$L5`: a client component (next/script, next/link, next/image); `div`: a host element.
    const component = type.startsWith('$');
    const strategy = typeof props.strategy === 'string' ? props.strategy : undefined;
    const attributes = {};
    for (const [prop, attribute] of Object.entries(PROP_ATTRIBUTES)) {
        if (typeof props[prop] === 'string')
            attributes[attribute] = props[prop];
    }
    if (typeof props.rel === 'string')
        attributes.rel = props.rel;
    for (const [attribute, url] of Object.entries(attributes)) {
        if (attribute === 'rel')
            continue;
        if (component) {
            if (attribute === 'src')
                emit({
                    url,
                    offset: 0,
                    role: 'load',
                    via: strategy ? `next/script (${strategy})` : 'component src',
                });
            else if (attribute === 'href')
                emit({ url, offset: 0, role: 'link', via: 'next/link href' });
            continue;
        }
        const role = (0,references/* roleOfAttribute */.K4)(type, attribute, attributes);
        if (role)
            emit({ url, offset: 0, ...role });
    }
    const inner = props.dangerouslySetInnerHTML;
    const code = typeof inner?.__html === 'string'
        ? inner.__html
        : (component && strategy) || type === 'script'
            ? typeof props.children === 'string'
                ? props.children
                : undefined
            : undefined;
    if (code === undefined)
        return;
    if (type === 'style') {
        for (const css of urlsInCss(code))
            emit({ ...css, offset: 0, role: 'load' });
        return;
    }
    if (type !== 'script' && !(component && strategy))
        return;
    const scriptType = typeof props.type === 'string' ? props.type.toLowerCase() : '';
    if (scriptType === 'importmap') {
        for (const url of urlsInImportMap(code))
            emit({ url, offset: 0, role: 'load', via: 'importmap' });
    }
    else if (scriptType === '' || scriptType === 'module' || scriptType.includes('javascript')) {
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

;// CONCATENATED MODULE: ./.build/airgap/html.js
var _a;










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
    'archive',
    'codebase',
    'lowsrc',
    'dynsrc',
]);
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
/** The `type`s a browser runs as script: `module` and the HTML spec's JavaScript MIME types, old ones included. */
const CLASSIC_OR_MODULE = /^(|module|(?:application|text)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/jscript|text\/livescript)$/i;
/** Attributes whose value the scan reads: the others are skipped without being copied. */
const READ_ATTRIBUTES = new Set([
    ...URL_ATTRIBUTES,
    ...SRCSET_ATTRIBUTES,
    'style',
    'rel',
    'type',
    'http-equiv',
    'content',
    'srcdoc',
    'disabled',
]);
/**
 * READ_ATTRIBUTES by name length: each attribute name is a fresh string, and comparing it
 * with the few names of its length costs less than hashing it for the set.
 */
const READ_ATTRIBUTES_BY_LENGTH = [];
for (const name of READ_ATTRIBUTES)
    (READ_ATTRIBUTES_BY_LENGTH[name.length] ??= []).push(name);
/**
 * The name as READ_ATTRIBUTES spells it, or undefined for an attribute the scan skips. The
 * element's attributes are keyed by it: a key from the list is already in V8's string
 * table, where a fresh copy would be looked up there at every store and read.
 */
function readAttributeName(name) {
    const names = READ_ATTRIBUTES_BY_LENGTH[name.length];
    if (names !== undefined)
        for (const known of names)
            if (known === name)
                return known;
    return isEventHandler(name) ? name : undefined;
}
/** `onload`, `onerror`, …: a script the browser runs, as an inline `<script>` is. */
function isEventHandler(name) {
    return name.length > 2 && name.charCodeAt(0) === 111 && name.charCodeAt(1) === 110;
}
/**
 * htmlparser2's void elements, by length first: the commonest tags (`a`, `p`) and most
 * others are ruled out without comparing or hashing the name (Parser asks for every tag).
 */
function isVoidElement(name) {
    switch (name.length) {
        case 2:
            return name === 'br' || name === 'hr';
        case 3:
            return name === 'img' || name === 'col' || name === 'wbr';
        case 4:
            return name === 'link' || name === 'meta' || name === 'base' || name === 'area';
        case 5:
            return (name === 'input' ||
                name === 'embed' ||
                name === 'frame' ||
                name === 'param' ||
                name === 'track');
        case 6:
            return name === 'source' || name === 'keygen';
        case 7:
            return name === 'command' || name === 'isindex';
        case 8:
            return name === 'basefont';
        default:
            return false;
    }
}
/**
 * htmlparser2's Tokenizer, skipping ahead to the next `<`, `>` or quote with the engine's
 * string search rather than a loop over each character (most of a page is text between
 * tags). Same contract as the method it replaces: `index` at the character, or at the
 * last one of the buffer when it is not there.
 */
class SearchingTokenizer extends Tokenizer/* default */.A {
}
const CDATA_LAST = 'CDATA['.length - 1;
const OPENING_SQUARE_BRACKET = 0x5b;
const tokenizerCdataSequence = Tokenizer/* default */.A.prototype.stateCDATASequence;
Object.defineProperty(SearchingTokenizer.prototype, 'stateCDATASequence', {
    /**
     * `<![CDATA[` opens a CDATA section only in an SVG or MathML element. Elsewhere a browser
     * reads it as a bogus comment, which the next `>` ends: in `<![CDATA[ a > <img src=…> ]]>`
     * the image loads. The Tokenizer would hide everything up to `]]>`; it is handed a
     * character that is not the last `[`, and takes the bogus comment's path from there.
     */
    value: function stateCDATASequence(c) {
        const bogus = this.sequenceIndex === CDATA_LAST &&
            c === OPENING_SQUARE_BRACKET &&
            this.cbs.cdataAllowed?.() !== true;
        tokenizerCdataSequence.call(this, bogus ? 0 : c);
    },
});
Object.defineProperty(SearchingTokenizer.prototype, 'fastForwardTo', {
    value: function fastForwardTo(c) {
        const found = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
        if (found >= 0) {
            this.index = found + this.offset;
            return true;
        }
        this.index = this.buffer.length + this.offset - 1;
        return false;
    },
});
/**
 * htmlparser2's Parser with the same tree-building rules, minus the copies no one reads:
 * the value of an attribute outside READ_ATTRIBUTES (class, id, data-*: most of them)
 * is neither cut from the text nor stored on the element, and neither are comments and
 * text outside `<script>` and `<style>` (`textWanted`).
 */
class ScanningParser extends Parser/* Parser */.i {
    #skipping = false;
    foreignOpen = [];
    foreignNames = new Map();
    /** The element being reported closed is an SVG or MathML one (a `<template>` there is none of HTML's). */
    closingForeign = false;
    /** Whether an element named `template` or `noscript` is open since the `<svg>` or `<math>`. */
    holdsInertName() {
        const names = this.foreignNames;
        return names.size > 0 && ((names.get('template') ?? 0) > 0 || (names.get('noscript') ?? 0) > 0);
    }
    /** Whether text is read: only a raw `<script>` or `<style>`'s, which the scanner asks for. */
    textWanted = false;
    ontext(start, endIndex) {
        if (this.textWanted) {
            super.ontext(start, endIndex);
            return;
        }
        const state = this;
        state.endIndex = endIndex - 1;
        state.startIndex = endIndex;
    }
    /** Comments are never read (the Parser would cut each one from the page for no one). */
    oncomment(_start, endIndex) {
        const state = this;
        state.endIndex = endIndex;
        state.startIndex = endIndex + 1;
    }
    isVoidElement(name) {
        return isVoidElement(name);
    }
    onattribname(start, endIndex) {
        super.onattribname(start, endIndex);
        const state = this;
        const known = readAttributeName(state.attribname);
        this.#skipping = known === undefined;
        if (known !== undefined)
            state.attribname = known;
    }
    onattribdata(start, endIndex) {
        if (!this.#skipping)
            super.onattribdata(start, endIndex);
    }
    onattribend(_quote, endIndex) {
        const state = this;
        state.endIndex = endIndex;
        // As the Parser does (the first of two same-named attributes counts), without its
        // generic own-property check: every name read here is a plain one (READ_ATTRIBUTES).
        const attribs = state.attribs;
        if (!this.#skipping && attribs !== null && attribs[state.attribname] === undefined)
            attribs[state.attribname] = state.attribvalue;
        state.attribvalue = '';
    }
}
/**
 * The end tags the scan acts on outside SVG and MathML: those of the raw-text elements it
 * reads, </form>, and those of the elements whose `<base>` browsers ignore. Another end
 * tag's name (</a>, </li>, </div>: most of them) is not even cut from the text when its
 * length rules it out.
 */
const END_TAGS_READ = ['script', 'style', 'form', 'template', 'noscript'];
const END_TAG_READ_LENGTHS = new Set(END_TAGS_READ.map((name) => name.length));
/** Where SVG and MathML content lets HTML back in (lower case, as tag names are read here). */
const HTML_INTEGRATION_POINTS = {
    svg: new Set(['foreignobject', 'desc', 'title']),
    math: new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']),
};
// The scan reads each start tag with its attributes, and the end of `<script>` and
// `<style>`; it never asks which HTML element encloses another. So the Parser's stack of
// open elements (implied end tags, a second <form>, SVG's camel-case names) is not kept:
// a start tag is named in lower case, an end tag reported as written. Only inside
// `<svg>` and `<math>` are open elements followed, because there the tokenizer reads
// `<style>` and `<script>` as markup rather than raw text, as browsers do: it asks
// isInForeignContext at every tag.
Object.defineProperties(ScanningParser.prototype, {
    readTagName: {
        value: function readTagName(start, endIndex) {
            const name = this.getSlice(start, endIndex).toLowerCase();
            // HTML's alias, outside SVG: <image> is an <img>.
            return name === 'image' && !foreignNow(this) ? 'img' : name;
        },
    },
    isInForeignContext: {
        value: function isInForeignContext() {
            return foreignNow(this);
        },
    },
    // Asked by the tokenizer at `<![CDATA[` (see SearchingTokenizer).
    cdataAllowed: {
        value: function cdataAllowed() {
            return currentNodeForeign(this);
        },
    },
    emitOpenTag: {
        value: function emitOpenTag(name) {
            this.openTagStart = this.startIndex;
            this.tagname = name;
            this.attribs = {};
            const open = this.foreignOpen;
            // `<svg><p>`: a browser leaves foreign content for the HTML element (asked only there:
            // a name looked up in a set is hashed, at every tag).
            if (foreignNow(this) && BREAKOUT.has(name))
                leaveForeign(this);
            if (name === 'svg' || name === 'math')
                pushForeign(this, { name, root: name, foreign: true });
            else if (open.length > 0 && !this.isVoidElement(name)) {
                const { root } = open[open.length - 1];
                const foreign = !HTML_INTEGRATION_POINTS[root].has(name) && foreignNow(this);
                pushForeign(this, { name, root, foreign });
            }
        },
    },
    onclosetag: {
        value: function onclosetag(start, endIndex) {
            this.endIndex = endIndex;
            if (this.foreignOpen.length > 0)
                closeForeign(this, this.readTagName(start, endIndex));
            else if (END_TAG_READ_LENGTHS.has(endIndex - start)) {
                const name = this.readTagName(start, endIndex);
                if (!this.isVoidElement(name))
                    this.cbs.onclosetag?.(name, false);
            }
            this.startIndex = endIndex + 1;
        },
    },
    onselfclosingtag: {
        value: function onselfclosingtag(endIndex) {
            this.endIndex = endIndex;
            // Browsers honour `/>` on SVG and MathML elements only: `<iframe … />` or `<script/>`
            // stays open, and its content runs as raw text to its end tag (the tokenizer does
            // this itself, since recognizeSelfClosing is off).
            if (!openedForeign(this)) {
                this.onopentagend(endIndex);
                return;
            }
            this.closeCurrentTag(false);
            this.startIndex = endIndex + 1;
        },
    },
    closeCurrentTag: {
        value: function closeCurrentTag(isOpenImplied) {
            const name = this.tagname;
            this.endOpenTag(isOpenImplied);
            const open = this.foreignOpen;
            // `<svg><template/>`: an SVG element closes, no HTML one.
            if (open.length > 0 && open[open.length - 1]?.name === name)
                this.closingForeign = popForeign(this).foreign;
            if (!this.isVoidElement(name))
                this.cbs.onclosetag?.(name, !isOpenImplied);
            this.closingForeign = false;
        },
    },
});
/** Whether the start tag just read opened an SVG or MathML element (the `<svg>` or `<math>` itself, or an element in foreign content). */
function openedForeign(state) {
    const open = state.foreignOpen;
    return open[open.length - 1]?.name === state.tagname && currentNodeForeign(state);
}
/**
 * Whether the innermost open element is an SVG or MathML one: an `<svg>` or `<math>`,
 * wherever it is (one inside a `<foreignObject>` or `<mi>` too), or one opened in foreign
 * content (an integration point such as `<foreignObject>` too, though its content is
 * HTML; not an HTML element inside it).
 */
function currentNodeForeign(state) {
    const open = state.foreignOpen;
    const current = open[open.length - 1];
    if (current === undefined)
        return false;
    if (current.name === 'svg' || current.name === 'math')
        return true;
    const parent = open[open.length - 2];
    return parent === undefined || parent.foreign;
}
function pushForeign(state, element) {
    state.foreignOpen.push(element);
    state.foreignNames.set(element.name, (state.foreignNames.get(element.name) ?? 0) + 1);
}
function popForeign(state) {
    const element = state.foreignOpen.pop();
    state.foreignNames.set(element.name, state.foreignNames.get(element.name) - 1);
    return element;
}
function foreignNow(state) {
    const open = state.foreignOpen;
    return open.length > 0 && open[open.length - 1].foreign;
}
/**
 * An end tag met since an `<svg>` or `<math>` opened: it closes the element of its name
 * open in there and every element inside that one, each reported closed (a `<style>` or
 * `<script>` among them ends there). `</p>` and `</br>` leave foreign content, as browsers
 * read them. Any other end tag is taken as stray and ignored, as browsers do when nothing
 * of that name is open; one that closes an element around the `<svg>` (which the scan does
 * not follow) therefore leaves it open, where a later `<style>` or `<script>` is read as
 * markup: the text is still read, where the opposite mistake would take the rest of the
 * page for a style sheet.
 */
function closeForeign(state, name) {
    const open = state.foreignOpen;
    // A name none of them has is known without walking the stack (one stray end tag each).
    let keep = state.foreignNames.get(name) ? open.length - 1 : -1;
    while (keep >= 0 && open[keep]?.name !== name)
        keep -= 1;
    if (keep >= 0) {
        popForeignTo(state, keep);
    }
    else if (name === 'p' || name === 'br') {
        leaveForeign(state);
    }
    else if (state.cbs.closesAroundForeign?.(name)) {
        // `<template><svg></template>`: the end tag closes the SVG, then its own element.
        popForeignTo(state, 0);
        state.cbs.onclosetag?.(name, false);
    }
}
/** Closes the foreign elements open down to the innermost HTML one or integration point. */
function leaveForeign(state) {
    const open = state.foreignOpen;
    let keep = open.length;
    while (keep > 0 && open[keep - 1]?.foreign)
        keep -= 1;
    popForeignTo(state, keep);
}
function popForeignTo(state, keep) {
    while (state.foreignOpen.length > keep) {
        const element = popForeign(state);
        state.closingForeign = element.foreign;
        state.cbs.onclosetag?.(element.name, false);
        state.closingForeign = false;
    }
}
/**
 * The HTML start tags that end foreign content wherever they are in an `<svg>` or `<math>`
 * (the HTML standard's list, but `<font>`, which does only with some attributes).
 */
const BREAKOUT = new Set([
    ...['b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt'],
    ...['em', 'embed', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li'],
    ...['listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span'],
    ...['strong', 'strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var'],
]);
const COMMA = 44;
/**
 * The URLs of a `srcset`, split as the HTML spec's srcset parser splits them: a URL runs
 * to the next whitespace (commas inside it are its own: `…/w_300,c_scale/a.jpg`,
 * `data:image/gif;base64,…`), its trailing commas end the candidate, and otherwise the
 * descriptors run to a comma outside parentheses.
 */
function srcsetUrls(value) {
    const urls = [];
    let at = 0;
    while (at < value.length) {
        while (at < value.length && ((0,html_whitespace/* isHtmlWhitespace */.f)(value.charCodeAt(at)) || value[at] === ','))
            at += 1;
        const start = at;
        while (at < value.length && !(0,html_whitespace/* isHtmlWhitespace */.f)(value.charCodeAt(at)))
            at += 1;
        if (at === start)
            break;
        // Its trailing commas cut by a loop: `/,+$/` would retry from every comma of a long run.
        let end = at;
        while (end > start && value.charCodeAt(end - 1) === COMMA)
            end -= 1;
        const url = value.slice(start, end);
        if (end === at) {
            for (let depth = 0; at < value.length; at += 1) {
                const c = value[at];
                if (c === '(')
                    depth = 1;
                else if (c === ')')
                    depth = 0;
                else if (c === ',' && depth === 0)
                    break;
            }
        }
        if (url !== '')
            urls.push(url);
    }
    return urls;
}
/**
 * The URL of `<meta http-equiv="refresh" content="5; url=...">`. A quoted URL runs to its
 * closing quote, or to the end when there is none, as browsers read it.
 */
function refreshUrl(content) {
    if (!/[^\d\s.;,]/.test(content))
        return undefined;
    const lead = /^\s*\d*(?:\.[\d.]*)?\s*[;,]?\s*(?:url\s*=\s*)?/i.exec(content)?.[0] ?? '';
    let url = content.slice(lead.length);
    const quote = url[0];
    if (quote === "'" || quote === '"') {
        const end = url.indexOf(quote, 1);
        url = url.slice(1, end < 0 ? undefined : end);
    }
    url = url.trim();
    return url === '' ? undefined : url;
}
/** The `<link rel>` values fetched as the parser meets them (a lone icon or manifest is not). */
const PARSER_FETCHED_RELS = /(?:^|\s)(?:stylesheet|preload|modulepreload|prefetch)(?:\s|$)/i;
/** Whether `name` of `<tag>` is fetched as the parser meets it (see `HtmlReference.parsed`). */
function fetchedWhenParsed(tag, name, attributes) {
    if (name === 'src')
        return tag === 'script' || tag === 'iframe';
    // An SVG <script>'s.
    if (tag === 'script')
        return name === 'href' || name === 'xlink:href';
    // A disabled stylesheet is fetched once a script enables it.
    return (tag === 'link' &&
        name === 'href' &&
        attributes.disabled === undefined &&
        PARSER_FETCHED_RELS.test(attributes.rel ?? ''));
}
/**
 * How deep `<iframe srcdoc>` documents are read inside one another. Each one is parsed
 * again from its attribute, where the one inside it is escaped once more: without a bound,
 * 1,000 levels (a 4 MB page, a 9 KB archive) took 1.4 GB and overflowed the call stack.
 * Real pages nest one or two.
 */
const MAX_FRAME_DEPTH = 8;
/**
 * Reads a page as it streams in, with a real HTML parser, and reports every reference
 * with what the browser does with it: URL attributes by element and `rel`, srcset, meta
 * refresh, inline styles, `<style>`, inline scripts (evidence-based), importmaps and
 * Next.js flight data. JSON-LD is metadata and not read further.
 */
class HtmlScanner {
    /**
     * `<base href>`, which relative references resolve against: the page's first, once read,
     * or set before reading when an earlier reading found it.
     */
    base;
    /** This reading has met the page's first `<base href>` (the one `base` holds). */
    baseReached = false;
    #callbacks;
    #parser;
    #raw;
    /** A `<form>` is open: browsers ignore another `<form>` start tag until its `</form>`. */
    #inForm = false;
    /**
     * `<template>` elements open, and a `<noscript>`: a `<base>` in one is not the page's (a
     * template's content is a document of its own; with scripts on, a noscript's is text,
     * where a `<template>` is none).
     */
    #templates = 0;
    #inNoscript = false;
    /** Flight data of the page, in order, and where each piece came from. */
    #flight = [];
    #flightStarts = [];
    #flightLength = 0;
    /** How many `<iframe srcdoc>` documents this one is inside. */
    #depth;
    constructor(callbacks, depth = 0) {
        this.#callbacks = callbacks;
        this.#depth = depth;
        const handler = {
            onopentag: (name, attributes) => this.#open(name, attributes),
            ontext: (text) => {
                if (!this.#raw)
                    return;
                if (this.#raw.parts.length === 0)
                    this.#raw.start = this.#parser.startIndex;
                this.#raw.parts.push(text);
            },
            // Outside SVG and MathML, only the end tags in END_TAGS_READ get here.
            onclosetag: (name) => {
                if (this.#raw && name === this.#raw.tag)
                    this.#closeRaw();
                // `<svg><template></template></svg>`: no HTML template was opened, none closes.
                if (this.#parser.closingForeign)
                    return;
                if (name === 'form')
                    this.#inForm = false;
                else if (name === 'noscript')
                    this.#inNoscript = false;
                else if (name === 'template' && this.#templates > 0 && !this.#inNoscript)
                    this.#templates -= 1;
            },
            closesAroundForeign: (name) => (name === 'template' && this.#templates > 0) || (name === 'noscript' && this.#inNoscript),
        };
        this.#parser = new ScanningParser(handler, {
            decodeEntities: false,
            lowerCaseAttributeNames: true,
            Tokenizer: SearchingTokenizer,
        });
    }
    write(chunk) {
        this.#parser.write(chunk);
    }
    end() {
        this.#parser.end();
        // A script or style the page never closes runs to its end.
        if (this.#raw)
            this.#closeRaw();
        if (this.#flight.length === 0)
            return;
        const starts = this.#flightStarts;
        for (const reference of referencesInFlight(this.#flight.join(''))) {
            // The row's offset in the joined flight text → the script that pushed it.
            let low = 0;
            for (let high = starts.length - 1; low < high;) {
                const mid = (low + high + 1) >> 1;
                if (starts[mid].at <= reference.offset)
                    low = mid;
                else
                    high = mid - 1;
            }
            this.#callbacks.reference({ ...reference, offset: starts[low]?.offset ?? 0 });
        }
    }
    #emit(reference) {
        this.#callbacks.reference(reference);
    }
    #open(tag, attributes) {
        if (tag === 'form' && !this.#parser.isInForeignContext()) {
            if (this.#inForm)
                return;
            this.#inForm = true;
        }
        const offset = this.#parser.startIndex;
        for (const name in attributes) {
            // Entities are decoded here, in the few values read, rather than in all the text.
            const raw = attributes[name];
            const value = raw.includes('&') ? (0,decode/* decodeHTMLAttribute */.Im)(raw) : raw;
            if (URL_ATTRIBUTES.has(name)) {
                const role = (0,references/* roleOfAttribute */.K4)(tag, name, attributes);
                const url = role ? value.trim() : '';
                if (role?.role === 'load' && isDataUrl(url))
                    this.#readDataUrl(tag, url, offset, role.via);
                if (role && url !== '')
                    this.#emit({
                        url,
                        offset,
                        role: role.role,
                        via: role.via,
                        attribute: true,
                        ...(fetchedWhenParsed(tag, name, attributes) && this.#fetchedNow()
                            ? { parsed: true }
                            : {}),
                    });
            }
            else if (SRCSET_ATTRIBUTES.has(name)) {
                const role = (0,references/* roleOfAttribute */.K4)(tag, name, attributes);
                for (const url of srcsetUrls(value))
                    if (role)
                        this.#emit({ url, offset, role: role.role, via: role.via, attribute: true });
            }
            else if (name === 'style') {
                for (const css of urlsInCss(value))
                    this.#emit({
                        url: css.url,
                        offset,
                        role: 'load',
                        via: 'inline style',
                        ...(this.#fetchedNow() ? { parsed: true } : {}),
                    });
            }
            else if (isEventHandler(name)) {
                this.#readScript(value, () => offset, name);
            }
            else if (name === 'srcdoc' && tag === 'iframe') {
                if (this.#depth < MAX_FRAME_DEPTH)
                    this.#readFrame(value, offset);
                else
                    this.#callbacks.unreadFrame?.(offset);
            }
        }
        if (tag === 'template' || tag === 'noscript' || tag === 'base')
            this.#openInert(tag, attributes);
        if (tag === 'meta' && attributes['http-equiv']?.toLowerCase() === 'refresh') {
            const url = refreshUrl((0,decode/* decodeHTMLAttribute */.Im)(attributes.content ?? ''));
            if (url)
                this.#emit({ url, offset, role: 'load', via: '<meta http-equiv=refresh>' });
        }
        if (tag === 'style' || (tag === 'script' && attributes.src === undefined))
            this.#raw = {
                tag,
                type: tag === 'script' ? (attributes.type ?? '').trim().toLowerCase() : '',
                start: offset,
                parts: [],
                // Inside <svg> or <math> its text is markup: entities mean their characters.
                decode: this.#parser.isInForeignContext(),
            };
        this.#parser.textWanted = this.#raw !== undefined;
    }
    /** Follows `<template>` and `<noscript>`, and takes the first `<base href>` of the page's own tree. */
    #openInert(tag, attributes) {
        // In an SVG or MathML element these are no HTML elements.
        if (this.#inNoscript || this.#parser.isInForeignContext())
            return;
        if (tag === 'template')
            this.#templates += 1;
        else if (tag === 'noscript')
            this.#inNoscript = true;
        else if (attributes.href !== undefined && !this.baseReached && this.#templates === 0) {
            this.baseReached = true;
            this.base ??= (0,decode/* decodeHTMLAttribute */.Im)(attributes.href);
        }
    }
    #closeRaw() {
        const raw = this.#raw;
        this.#raw = undefined;
        this.#parser.textWanted = false;
        if (!raw)
            return;
        const joined = raw.parts.join('');
        const content = raw.decode && joined.includes('&') ? (0,decode/* decodeHTML */.Gz)(joined) : joined;
        if (raw.tag === 'style') {
            for (const css of urlsInCss(content))
                this.#emit({
                    url: css.url,
                    offset: raw.start + css.offset,
                    role: 'load',
                    via: css.via,
                    ...(this.#fetchedNow() ? { parsed: true } : {}),
                });
            return;
        }
        if (raw.type === 'importmap') {
            for (const url of urlsInImportMap(content))
                this.#emit({ url, offset: raw.start, role: 'load', via: '<script type=importmap>' });
            return;
        }
        if (!CLASSIC_OR_MODULE.test(raw.type))
            return; // JSON-LD, templates, speculation rules
        // A script that does more than push flight data is read as a script too.
        if (content.includes('__next_f') && this.#readFlightPush(content, raw.start))
            return;
        this.#readScript(content, (at) => raw.start + at, 'inline script');
    }
    /**
     * Whether what the parser meets now is fetched now: not in a `<template>` or a
     * `<noscript>`, nor in one taken for an SVG element's (the SVG may have been closed by
     * markup this parser does not follow: `<div><svg></div><template>`).
     */
    #fetchedNow() {
        return this.#templates === 0 && !this.#inNoscript && !this.#parser.holdsInertName();
    }
    /** A document of its own, inside the attribute: the frame loads what it references. */
    #readFrame(value, offset) {
        const found = [];
        const inner = new _a({
            reference: (reference) => found.push({ reference, beforeItsBase: !inner.baseReached }),
            unconfirmed: (url) => this.#callbacks.unconfirmed?.({ ...url, offset }),
            unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
        }, this.#depth + 1);
        inner.write(value);
        inner.end();
        // The frame's document starts from the page's base as it is when the frame is made:
        // the page's own address when the frame comes before the page's <base href>. What its
        // parser fetches before a base of its own keeps that; the rest goes under that base.
        const madeBeforeBase = !this.baseReached && this.#fetchedNow();
        const atCreation = (reference) => madeBeforeBase ? { ...reference, parsed: true } : reference;
        const itsBase = inner.baseReached ? inner.base : undefined;
        for (const { reference: whole, beforeItsBase } of found) {
            const { parsed, ...reference } = whole;
            const framed = { ...reference, offset, via: `<iframe srcdoc> ${reference.via}` };
            const underItsBase = itsBase === undefined || (parsed && beforeItsBase)
                ? undefined
                : (0,references/* againstBase */.pG)(framed, itsBase);
            if (underItsBase === undefined) {
                this.#emit(atCreation(framed));
                continue;
            }
            if (beforeItsBase && framed.role === 'load') {
                // An image or a poster before the frame's base is fetched at once from where the
                // frame started, and may be again under its base: both, for the host check only.
                const { attribute: _, ...loaded } = framed;
                this.#emit(atCreation(loaded));
            }
            if ((0,references/* baseNamesHost */.YQ)(itsBase))
                this.#emit({ ...underItsBase, parsed: true });
            else
                this.#emit(atCreation(underItsBase));
        }
    }
    /**
     * What a frame, an `<object>` or `<embed>`, a stylesheet or a script loaded from a
     * `data:` URL loads in turn. A document of its own has no address to resolve a path
     * against: only its URLs with a host are read.
     */
    #readDataUrl(tag, url, offset, via) {
        const payload = dataUrlPayload(url);
        if (payload === undefined)
            return;
        const inside = `${via} (data:)`;
        if (tag === 'script') {
            if (!NOT_SCRIPT_TYPES.test(payload.type))
                this.#readScript(payload.text, () => offset, inside);
            return;
        }
        if (tag === 'link') {
            if (payload.type !== 'text/css')
                return;
            for (const css of urlsInCss(payload.text))
                this.#emit({ url: css.url, offset, role: 'load', via: `${inside} ${css.via}` });
            return;
        }
        if (!FRAMING_TAGS.has(tag) || !DOCUMENT_TYPES.has(payload.type))
            return;
        if (this.#depth >= MAX_FRAME_DEPTH) {
            this.#callbacks.unreadFrame?.(offset);
            return;
        }
        const inner = new _a({
            reference: ({ url: found, role, via: innerVia }) => {
                if (HAS_HOST.test(found))
                    this.#emit({ url: found, offset, role, via: `${inside} ${innerVia}` });
            },
            unconfirmed: (script) => this.#callbacks.unconfirmed?.({ ...script, offset }),
            unreadFrame: () => this.#callbacks.unreadFrame?.(offset),
        }, this.#depth + 1);
        inner.write(payload.text);
        inner.end();
    }
    /**
     * The URLs in a script's code (`offsetOf` places each in the page): loads when the code
     * loads them, the others unconfirmed.
     */
    #readScript(code, offsetOf, via) {
        for (const script of urlsInScript(code)) {
            const offset = offsetOf(script.offset);
            if (script.evidence)
                this.#emit({ url: script.url, offset, role: 'load', via: `${via}: ${script.evidence}` });
            else
                this.#callbacks.unconfirmed?.({ url: script.url, offset });
        }
    }
    /**
     * `self.__next_f.push([1, "…"])`: the string is a piece of the page's flight data.
     * Whether the script does nothing else: no name but those of the push forms Next.js
     * writes (`(self.__next_f=self.__next_f||[]).push([0])`), so no call that requests.
     */
    #readFlightPush(content, start) {
        let onlyPushes = true;
        try {
            for (const token of (0,acorn/* tokenizer */.OH)(content, { ecmaVersion: 'latest' })) {
                const value = token.value;
                if (token.type !== acorn/* tokTypes */.Y_.string) {
                    if (!FLIGHT_PUSH_TOKENS.has(token.type.label))
                        onlyPushes = false;
                    else if (token.type === acorn/* tokTypes */.Y_.name && !FLIGHT_PUSH_NAMES.has(value))
                        onlyPushes = false;
                    continue;
                }
                if (typeof value !== 'string')
                    continue;
                this.#flightStarts.push({ at: this.#flightLength, offset: start + token.start });
                this.#flight.push(value);
                this.#flightLength += value.length;
            }
        }
        catch {
            // Not the push form we know: read as any script.
            return false;
        }
        return onlyPushes;
    }
}
_a = HtmlScanner;
/** Elements that show a document from their URL: a `data:` one is read as such. */
const FRAMING_TAGS = new Set(['iframe', 'frame', 'object', 'embed']);
/** A URL with a scheme or a `//` host: what a document at a `data:` URL can load. */
const HAS_HOST = /^[\t\n\f\r ]*(?:[a-z][a-z0-9+.-]*:|[/\\]{2})/i;
/** The tokens (acorn's labels) and names of the scripts that push Next.js flight data. */
const FLIGHT_PUSH_TOKENS = new Set([
    'name',
    'num',
    'null',
    '(',
    ')',
    '[',
    ']',
    '.',
    ',',
    ';',
    '=',
    '||',
]);
const FLIGHT_PUSH_NAMES = new Set(['self', '__next_f', 'push']);
/** Every reference of a whole page (tests and small inputs). */
function referencesInHtml(source) {
    const found = [];
    const scanner = new HtmlScanner({ reference: (r) => found.push(r) });
    scanner.write(source);
    scanner.end();
    return found;
}

// EXTERNAL MODULE: external "node:fs/promises"
var external_node_fs_promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:string_decoder"
var external_node_string_decoder_ = __webpack_require__(6193);
// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __webpack_require__(5919);
// EXTERNAL MODULE: ./.build/worker-file.js
var worker_file = __webpack_require__(625);
;// CONCATENATED MODULE: ./.build/airgap/scan.js

















/** Kept in memory at most; the counts go on. */
const MAX_KEPT = 100_000;
/**
 * Characters of broken links (page, link and target) kept at most: links to a missing
 * page of a deep directory hold kilobytes each, and the report files repeat them, so a
 * count alone let a 2 KB archive grow them past what a string can hold.
 */
const MAX_KEPT_BROKEN_CHARS = 16 * 1024 * 1024;
/** Characters kept so far, per file's part and per result. */
const keptBrokenChars = new WeakMap();
/** Whether a broken link of `size` characters still fits in `holder`'s share, counted if so. */
function keepsBroken(holder, owner, size) {
    const kept = keptBrokenChars.get(owner) ?? 0;
    if (holder.broken.length >= MAX_KEPT || kept + size > MAX_KEPT_BROKEN_CHARS)
        return false;
    keptBrokenChars.set(owner, kept + size);
    return true;
}
function brokenSize(link) {
    return link.file.length + link.url.length + link.target.length;
}
const MAX_HOSTS_PER_FILE = 10_000;
/**
 * Text handed to the HTML parser at once. Below V8's large-object size (128 KB), so a
 * page's text dies young instead of piling up until a full collection (measured on a
 * 3,000-page site: peak RSS 317 MB with whole 150 KB pages as strings).
 */
const READ_CHUNK = 64 * 1024;
/** Files up to this size are read whole; larger pages stream through the parser. */
const SMALL_FILE = 2 * 1024 * 1024;
const YIELD_EVERY_FILES = 16;
/**
 * Parsing is CPU-bound: a site of 4 MB or more is parsed on this thread and one worker
 * thread, from one queue, from its first file (a hosted runner has two cores; each further worker
 * costs its own heap, and the step must stay within 250 MB). A small site starts none.
 */
const SCAN_THREADS = {
    count: Math.min(1, (0,external_node_os_.availableParallelism)() - 1),
    fromSiteBytes: 4 * 1024 * 1024,
};
/**
 * A page's text dies young: a small young generation keeps each worker's heap near its
 * live size (measured on the 3,000-page site: peak RSS of the process 212 MB with V8's
 * default, 168 MB with 8 MB, at the same CPU time).
 */
const WORKER_YOUNG_GENERATION_MB = 8;
/** Files handed to a worker before its first answer, so it never waits for the next. */
const QUEUED_PER_WORKER = 2;
/** Files read ahead of the first one not merged yet (bounds what waits to be merged). */
const MAX_AHEAD = 256;
const KIND_BY_EXTENSION = new Map([
    ['.html', 'html'],
    ['.htm', 'html'],
    ['.xhtml', 'html'],
    ['.svg', 'html'],
    ['.css', 'css'],
    ['.js', 'js'],
    ['.mjs', 'js'],
    ['.cjs', 'js'],
    ['.webmanifest', 'manifest'],
    // Next.js writes the RSC payload of each page as .txt; other text files (robots.txt)
    // are read the same way, and hold nothing it looks for.
    ['.txt', 'flight'],
]);
/**
 * What a file of the site is read as, by its extension (as `path.extname` finds it, in
 * any case) or the name `manifest.json`. Asked of every file of the site: found with one
 * search from the end of the path and one lookup.
 */
function kindOf(file) {
    const slash = file.lastIndexOf('/');
    const dot = file.lastIndexOf('.');
    // A name that only starts with a dot (`.txt`) has no extension.
    if (dot > slash + 1) {
        const kind = KIND_BY_EXTENSION.get(file.slice(dot).toLowerCase());
        if (kind !== undefined)
            return kind;
    }
    return file.endsWith('manifest.json') && slash === file.length - 14 ? 'manifest' : undefined;
}
/**
 * Reads every page, stylesheet, script, flight payload and manifest of an extracted site
 * once, streaming pages through the HTML parser, and collects what leaves the site and
 * which internal links lead nowhere. A large site is parsed on worker threads; each
 * file's part is merged in file order, so the result is the same on any number of them.
 * Memory stays flat in the size of the site.
 */
async function scanSite(tree, options) {
    const result = {
        scanned: 0,
        pages: 0,
        external: [],
        externalDropped: 0,
        metadata: 0,
        unconfirmed: new Map(),
        unreadFrames: { count: 0 },
        links: { checked: 0, broken: [], brokenCount: 0 },
        rules: emptyRules(),
    };
    // Sorted once filtered: most of a large site's files are images and fonts, never read.
    const files = [];
    for (const file of tree.files) {
        const kind = kindOf(file);
        if (kind !== undefined)
            files.push({ file, kind });
    }
    files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const threads = { ...SCAN_THREADS, ...options.threads };
    const entry = threads.count > 0 ? (threads.entry ?? shippedWorker()) : undefined;
    const here = new FileScanner(tree, options);
    if (entry && atLeastBytes(tree.root, files, threads.fromSiteBytes)) {
        const requests = files.map(({ file, kind }, index) => ({ index, file, kind }));
        await scanOnWorkers(tree, options, entry, threads.count, requests, here, result);
        return result;
    }
    for (const [index, { file, kind }] of files.entries()) {
        // Reads are synchronous: let signals, timers and the deadline in between files.
        if (index % YIELD_EVERY_FILES === 0)
            await (0,promises_.setImmediate)();
        (0,errors/* throwIfAborted */.Te)(options.signal);
        mergeFileScan(result, await here.scan(file, kind));
    }
    return result;
}
/** Whether `files` hold at least `bytes` bytes (stops counting there: a large site costs a few stats). */
function atLeastBytes(root, files, bytes) {
    let total = 0;
    for (const { file } of files) {
        if (total >= bytes)
            return true;
        try {
            total += (0,external_node_fs_.statSync)(external_node_path_.join(root, ...file.split('/'))).size;
        }
        catch {
            // Unreadable: reading it says why, on whichever thread.
        }
    }
    return total >= bytes;
}
function emptyRules() {
    return {
        file: { count: 0 },
        html: { count: 0 },
        index: { count: 0 },
        directoryTrap: { count: 0 },
    };
}
/**
 * Reads `requests` on this thread and `count` worker threads, from one queue, and merges
 * each file's part in order. A worker that fails (it could not start, or it died) is not
 * fatal: this thread reads the files it held. A file that cannot be read fails the scan
 * as it does on this thread alone.
 */
async function scanOnWorkers(tree, options, entry, count, requests, here, result) {
    const setup = {
        root: tree.root,
        files: [...tree.files],
        directories: [...tree.directories],
        options: {
            allowedHosts: options.allowedHosts,
            external: options.external,
            links: options.links,
        },
    };
    // Parts by position in `requests`; merged in that order as soon as the next one is in.
    const parts = new Map();
    let sent = 0;
    let merged = 0;
    let readHere = 0;
    let workerFailure;
    let unreadable;
    let wake;
    const changed = () => {
        wake?.();
        wake = undefined;
    };
    const workers = [];
    const idle = new Set();
    const mergeReady = () => {
        for (let part = parts.get(merged); part; part = parts.get(merged)) {
            parts.delete(merged);
            mergeFileScan(result, part);
            merged += 1;
        }
    };
    const feed = (worker) => {
        if (workerFailure !== undefined || sent >= requests.length || sent - merged >= MAX_AHEAD)
            return false;
        worker.postMessage({ ...requests[sent], index: sent });
        sent += 1;
        return true;
    };
    const feedIdle = () => {
        for (const worker of idle)
            if (feed(worker))
                idle.delete(worker);
    };
    options.signal?.addEventListener('abort', changed);
    try {
        for (let n = 0; n < Math.min(count, requests.length); n += 1) {
            const worker = new external_node_worker_threads_.Worker(entry.file, {
                workerData: setup,
                resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
            });
            workers.push(worker);
            worker.on('message', (reply) => {
                if ('failure' in reply)
                    unreadable ??= scanFailure(reply.failure);
                else {
                    // Not merged already (read here after another worker failed).
                    if (reply.index >= merged)
                        parts.set(reply.index, reply.scan);
                    mergeReady();
                    if (!feed(worker))
                        idle.add(worker);
                    // A worker waits when the merge is held up: wake the idle ones.
                    feedIdle();
                }
                changed();
            });
            const failed = (cause) => {
                if (merged < requests.length)
                    workerFailure ??= cause;
                changed();
            };
            worker.on('error', failed);
            worker.on('exit', (code) => failed(new Error(`the worker thread exited with code ${code}`)));
            for (let queued = 0; queued < QUEUED_PER_WORKER; queued += 1)
                feed(worker);
        }
        // This thread reads files too, from the same queue, between the workers' answers.
        while (merged < requests.length) {
            (0,errors/* throwIfAborted */.Te)(options.signal);
            if (unreadable)
                throw unreadable;
            if (sent < requests.length && sent - merged < MAX_AHEAD) {
                const at = sent;
                sent += 1;
                const { file, kind } = requests[at];
                const part = await here.scan(file, kind);
                readHere += 1;
                parts.set(at, part);
                mergeReady();
                feedIdle();
                // Let the workers' answers in (and with them, more work for them).
                await (0,promises_.setImmediate)();
            }
            else if (workerFailure !== undefined) {
                // Files the failed worker held: read here, in order.
                const { file, kind } = requests[merged];
                if (!parts.has(merged))
                    parts.set(merged, await here.scan(file, kind));
                mergeReady();
            }
            else
                await new Promise((resolve) => (wake = resolve));
        }
    }
    finally {
        options.signal?.removeEventListener('abort', changed);
        for (const worker of workers)
            void worker.terminate();
    }
    options.debug?.(workerFailure === undefined
        ? `Readiness scan: ${requests.length} file(s) read on ${workers.length + 1} threads (${readHere} on the main one).`
        : `Readiness scan: a worker thread failed (${(0,errors/* errorMessage */.gJ)(workerFailure)}); the main thread read the files it held.`);
}
/** The error a worker's failure stands for: the same one the calling thread would throw. */
function scanFailure(failure) {
    const local = failure.code !== undefined
        ? (0,errors/* asLocalFileError */.kH)(failure, failure.path ?? '', READ_DOING)
        : undefined;
    if (local)
        return local;
    const error = new Error(failure.message);
    if (failure.stack !== undefined)
        error.stack = failure.stack;
    return error;
}
/** The worker script shipped beside this module: bundled in dist/, or compiled beside it. */
function shippedWorker() {
    const file = (0,worker_file/* shippedWorkerFile */.M)(import.meta.url, 'scan-worker.js');
    return file === undefined ? undefined : { file };
}
/** Adds one file's part to the result, as reading it in place would have. */
function mergeFileScan(result, part) {
    result.scanned += part.scanned;
    result.pages += part.pages;
    for (const reference of part.external) {
        if (result.external.length < MAX_KEPT)
            result.external.push(reference);
        else
            result.externalDropped += 1;
    }
    result.externalDropped += part.externalDropped;
    result.metadata += part.metadata;
    for (const [host, seen] of part.unconfirmed) {
        const entry = result.unconfirmed.get(host);
        if (entry)
            entry.count += seen.count;
        else if (result.unconfirmed.size < airgap_findings/* MAX_UNCONFIRMED_HOSTS */.W7)
            result.unconfirmed.set(host, seen);
    }
    result.unreadFrames.count += part.unreadFrames.count;
    result.unreadFrames.first ??= part.unreadFrames.first;
    result.links.checked += part.checked;
    result.links.brokenCount += part.brokenCount;
    for (const link of part.broken)
        if (keepsBroken(result.links, result, brokenSize(link)))
            result.links.broken.push(link);
    for (const rule of Object.keys(part.rules)) {
        const use = result.rules[rule];
        const partUse = part.rules[rule];
        use.count += partUse.count;
        if (use.example === undefined && partUse.example !== undefined)
            use.example = partUse.example;
    }
}
const READ_DOING = 'read the extracted file';
/** Reads files of one site one at a time, on whichever thread it lives. */
class FileScanner {
    tree;
    options;
    /** Where a link leads, by page directory and link text (the same from every page of a directory). */
    #linkCache = new LinkCache();
    constructor(tree, 
    /** `signal`: stops a page streamed in pieces between two (a worker thread is stopped whole). */
    options) {
        this.tree = tree;
        this.options = options;
    }
    async scan(file, kind) {
        const absolute = external_node_path_.join(this.tree.root, ...file.split('/'));
        try {
            return await this.#scan(file, absolute, kind);
        }
        catch (err) {
            throw (0,errors/* asLocalFileError */.kH)(err, absolute, READ_DOING) ?? err;
        }
    }
    /** `pageBase`: the page's `<base href>`, when an earlier reading found it too late. */
    async #scan(file, absolute, kind, pageBase) {
        const { tree, options } = this;
        const content = readSmall(absolute);
        const part = {
            bytes: content?.length ?? 0,
            scanned: 0,
            pages: 0,
            external: [],
            externalDropped: 0,
            metadata: 0,
            unconfirmed: new Map(),
            unreadFrames: { count: 0 },
            checked: 0,
            broken: [],
            brokenCount: 0,
            rules: emptyRules(),
        };
        const lines = new references/* LineIndex */.rr();
        const seen = new Map();
        // A page repeats its outbound links (a "source" link per paragraph): parse each URL once.
        const hosts = new Map();
        const outsideHost = (url) => {
            // One lookup, not has + get: each hashes a fresh string (null: inside or allowed).
            const known = hosts.get(url);
            if (known !== undefined)
                return known ?? undefined;
            const host = (0,references/* externalHost */.K8)(url);
            const outside = host === undefined || (0,references/* isAllowedHost */.Xj)(host, options.allowedHosts) ? undefined : host;
            if (hosts.size < MAX_HOSTS_PER_FILE)
                hosts.set(url, outside ?? null);
            return outside;
        };
        const external = (found) => {
            if (!options.external || isSitePath(found.url))
                return;
            const host = outsideHost(found.url);
            if (host === undefined)
                return;
            if (found.role === 'metadata') {
                part.metadata += 1;
                return;
            }
            // One finding per URL and role in a file (flight data repeats the HTML's links),
            // looked up by the URL itself: a key made of both would be a new string to hash
            // each time, all of a long URL's characters.
            const roles = seen.get(found.url);
            if (roles?.has(found.role))
                return;
            // Past the kept list, each is counted, not remembered: a page of millions of distinct
            // URLs would hold them all (a repeat of one not kept is counted again).
            if (part.external.length >= MAX_KEPT) {
                part.externalDropped += 1;
                return;
            }
            if (roles === undefined)
                seen.set(found.url, new Set([found.role]));
            else
                roles.add(found.role);
            part.external.push({
                file,
                ...lines.at(found.offset),
                url: detached(found.url),
                host: detached(host),
                role: found.role,
                via: found.via,
            });
        };
        const unconfirmed = (script) => {
            if (!options.external)
                return;
            const host = outsideHost(script.url);
            if (host === undefined)
                return;
            const entry = part.unconfirmed.get(host);
            if (entry)
                entry.count += 1;
            else if (part.unconfirmed.size < airgap_findings/* MAX_UNCONFIRMED_HOSTS */.W7)
                part.unconfirmed.set(host, {
                    count: 1,
                    first: { file, line: lines.at(script.offset).line, url: detached(script.url) },
                });
        };
        if (kind === 'html') {
            part.scanned += 1;
            const isPage = !file.toLowerCase().endsWith('.svg');
            if (isPage)
                part.pages += 1;
            // Links to check, in the page's order; `unbased`: fetched before the <base href>,
            // against the page's own address.
            const pending = [];
            let basedPending = 0;
            // Browsers resolve a link when it is followed, and an image or a video when they load
            // it, against the page's first <base href>, wherever it stands. One found after
            // references it changes were read has the page read again, knowing it from the
            // start. What the parser fetches as it meets it (a script, a stylesheet) is fetched
            // from the page's own address first.
            let readBeforeBase = false;
            let linksCheckedBeforeBase = false;
            const baseCameLate = () => pageBase === undefined &&
                scanner.base !== undefined &&
                (linksCheckedBeforeBase ||
                    (readBeforeBase && options.external && (0,references/* baseNamesHost */.YQ)(scanner.base)));
            const scanner = new HtmlScanner({
                reference: (found) => {
                    const unbased = found.parsed === true && !scanner.baseReached;
                    if (scanner.base === undefined)
                        readBeforeBase = true;
                    // Fetched from the page's own address first, but a script may move it under the
                    // base (`onload="this.rel='stylesheet'"`, an element put back): the host check
                    // reads it there. The link check reads it where the parser fetched it.
                    external((0,references/* underBase */.uQ)(found, scanner.base));
                    if (isPage && options.links && found.attribute && found.role !== 'metadata') {
                        pending.push({ reference: found, unbased });
                        if (!unbased)
                            basedPending += 1;
                    }
                },
                unconfirmed,
                unreadFrame: (offset) => {
                    part.unreadFrames.count += 1;
                    part.unreadFrames.first ??= { file, line: lines.at(offset).line };
                },
            });
            scanner.base = pageBase;
            const chunks = content !== undefined ? textPieces(content) : streamedText(absolute, part);
            for await (const chunk of chunks) {
                // A page of hundreds of MB takes seconds: the step's timeout must not wait for it.
                (0,errors/* throwIfAborted */.Te)(options.signal);
                lines.append(chunk);
                scanner.write(chunk);
                if (baseCameLate())
                    return this.#scan(file, absolute, kind, scanner.base);
                // Links are resolved as the page streams, so only a chunk's worth is held.
                if (scanner.base === undefined && basedPending > 0)
                    linksCheckedBeforeBase = true;
                checkLinks(tree, file, scanner.base, pending, lines, part, this.#linkCache);
                pending.length = 0;
                basedPending = 0;
            }
            scanner.end();
            if (baseCameLate())
                return this.#scan(file, absolute, kind, scanner.base);
            checkLinks(tree, file, scanner.base, pending, lines, part, this.#linkCache);
            return part;
        }
        const bytes = content ?? (await (0,external_node_fs_promises_.readFile)(absolute));
        if (content === undefined)
            part.bytes = bytes.length;
        const source = wholeText(bytes);
        lines.append(source);
        if (kind === 'flight') {
            if (!/^[0-9a-f]*:/i.test(source))
                return part;
            part.scanned += 1;
            for (const found of referencesInFlight(source))
                external(found);
        }
        else if (kind === 'css') {
            part.scanned += 1;
            for (const css of urlsInCss(source))
                external({ url: css.url, offset: css.offset, role: 'load', via: css.via });
        }
        else if (kind === 'js') {
            part.scanned += 1;
            for (const script of urlsInScript(source)) {
                if (script.evidence)
                    external({
                        url: script.url,
                        offset: script.offset,
                        role: 'load',
                        via: `script: ${script.evidence}`,
                    });
                else
                    unconfirmed(script);
            }
        }
        else {
            const references = referencesInWebManifest(source);
            if (references.length === 0)
                return part;
            part.scanned += 1;
            for (const found of references)
                external(found);
        }
        return part;
    }
}
/**
 * The bytes of a file up to SMALL_FILE bytes; undefined for a larger one (streamed instead).
 * Synchronous: a page just extracted is in the page cache, and four thread-pool round trips
 * per file (open, stat, read, close) cost more than the copy.
 */
function readSmall(file) {
    const fd = (0,external_node_fs_.openSync)(file, 'r');
    try {
        return (0,external_node_fs_.fstatSync)(fd).size <= SMALL_FILE ? (0,external_node_fs_.readFileSync)(fd) : undefined;
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/**
 * A decoder for the text that starts with `head`: UTF-16 when a byte order mark says so
 * (browsers read a page or a stylesheet so whatever its charset), UTF-8 otherwise. A
 * character split between two pieces stays whole.
 */
function textDecoding(head) {
    const utf16 = head[0] === 0xff && head[1] === 0xfe
        ? 'utf-16le'
        : head[0] === 0xfe && head[1] === 0xff
            ? 'utf-16be'
            : undefined;
    if (utf16 === undefined) {
        const decoder = new external_node_string_decoder_.StringDecoder('utf8');
        return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() };
    }
    const decoder = new TextDecoder(utf16);
    return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}
function wholeText(bytes) {
    const decoder = textDecoding(bytes);
    return decoder.write(bytes) + decoder.end();
}
/** The text of `bytes` in pieces of READ_CHUNK bytes. */
function* textPieces(bytes) {
    const decoder = textDecoding(bytes);
    for (let at = 0; at < bytes.length; at += READ_CHUNK)
        yield decoder.write(bytes.subarray(at, at + READ_CHUNK));
    const rest = decoder.end();
    if (rest !== '')
        yield rest;
}
/** The text of a large file, streamed in pieces; its bytes counted into `counted`. */
async function* streamedText(file, counted) {
    let decoder;
    for await (const chunk of (0,external_node_fs_.createReadStream)(file, { highWaterMark: READ_CHUNK })) {
        const bytes = chunk;
        counted.bytes += bytes.length;
        decoder ??= textDecoding(bytes);
        yield decoder.write(bytes);
    }
    const rest = decoder?.end() ?? '';
    if (rest !== '')
        yield rest;
}
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/**
 * `/path`: a root-absolute link inside the site, the most common kind (no scheme, no host).
 * Not `/\host` nor `/<line break>/host`, which browsers read as `//host`.
 */
function isSitePath(url) {
    if (url.charCodeAt(0) !== SLASH)
        return false;
    const second = url.charCodeAt(1);
    return (second !== SLASH &&
        second !== BACKSLASH &&
        second !== TAB &&
        second !== LINE_FEED &&
        second !== CARRIAGE_RETURN);
}
/**
 * A root-absolute path with nothing to normalize or decode: its own URL path. (Browsers
 * drop tabs and line breaks from a URL, so a path with one goes through the URL parser.)
 */
const PLAIN_ABSOLUTE = /^\/(?!\/)[^?#%\\\t\n\r]*$/;
const CACHE_LIMIT = 200_000;
/**
 * Link targets by scope (a page directory, a base's address, or '' for a path from the
 * site's root) and link text, CACHE_LIMIT in all. Looked up by the two apart: a key made
 * of both would be a new string to hash at every link, all of a long base's characters.
 * The scope last asked for is kept: V8 hashes a string of over 16K characters by its
 * length alone, so a long base's address is told from another key by comparing them,
 * each of its characters unless it is the same string.
 */
class LinkCache {
    #byScope = new Map();
    #size = 0;
    #lastScope;
    #last;
    get(scope, value) {
        return this.#targets(scope)?.get(value);
    }
    set(scope, value, target) {
        if (this.#size >= CACHE_LIMIT)
            return;
        let targets = this.#targets(scope);
        if (targets === undefined) {
            targets = new Map();
            this.#byScope.set(detached(scope), targets);
            this.#last = targets;
        }
        targets.set(detached(value), target);
        this.#size += 1;
    }
    #targets(scope) {
        if (scope !== this.#lastScope)
            this.#last = this.#byScope.get(scope);
        // Kept as this very string: the next comparison with it reads no character.
        this.#lastScope = scope;
        return this.#last;
    }
}
function resolveLink(tree, pageBase, value) {
    let urlPath;
    // A path alone is the site's own, unless a <base href> of another origin says otherwise.
    if (PLAIN_ABSOLUTE.test(value) && !value.includes('/.') && pageBase.origin === references/* SITE_ORIGIN */.t_)
        urlPath = value;
    else {
        let target;
        try {
            target = new URL(value, pageBase);
        }
        catch {
            return null;
        }
        if (target.origin !== references/* SITE_ORIGIN */.t_)
            return null;
        const decoded = (0,site_tree/* decodedUrlPath */.DP)(target.pathname);
        if (decoded === undefined)
            return { path: target.pathname, resolved: undefined };
        urlPath = decoded;
    }
    return { path: detached(urlPath), resolved: tree.resolve(urlPath) };
}
function linkBase(own, base) {
    let pageBase = own;
    if (base !== undefined) {
        // A base that is no URL, or a data: or javascript: one, leaves the page's own, as the
        // HTML standard says (Chromium follows no relative link under one that is no URL).
        const parsed = URL.canParse(base, own.href) ? new URL(base, own) : undefined;
        if (parsed && parsed.protocol !== 'data:' && parsed.protocol !== 'javascript:')
            pageBase = parsed;
    }
    // Links resolve the same from every page of a directory (and root-absolute ones from every page).
    const href = pageBase.href;
    const scope = base === undefined ? pageBase.pathname.slice(0, pageBase.pathname.lastIndexOf('/') + 1) : href;
    return { pageBase, href, scope, based: base !== undefined };
}
function checkLinks(tree, file, base, found, lines, part, cache) {
    if (found.length === 0)
        return;
    let own;
    try {
        own = new URL((0,site_tree/* pageAddress */.qx)(references/* SITE_ORIGIN */.t_, (0,site_tree/* pageUrl */.fi)(file)));
    }
    catch {
        return;
    }
    const basedOn = linkBase(own, base);
    let unbased;
    for (const pending of found) {
        const { reference } = pending;
        const { pageBase, href, scope, based } = pending.unbased
            ? (unbased ??= linkBase(own, undefined))
            : basedOn;
        const value = reference.url;
        if (!isSitePath(value) &&
            (value.startsWith('#') || value.startsWith('//') || references/* SCHEME */.My.test(value)))
            continue;
        // A link of only a query is the page itself: its own scope.
        const linkScope = !based && value.startsWith('/') ? '' : value.startsWith('?') ? href : scope;
        let target = cache.get(linkScope, value);
        if (target === undefined) {
            target = resolveLink(tree, pageBase, value);
            cache.set(linkScope, value, target);
        }
        if (target === null)
            continue;
        part.checked += 1;
        const { resolved } = target;
        if (!resolved) {
            part.brokenCount += 1;
            if (keepsBroken(part, part, file.length + value.length + target.path.length))
                part.broken.push({
                    file,
                    ...lines.at(reference.offset),
                    url: detached(value),
                    target: keptPath(target),
                });
            continue;
        }
        countRule(part.rules[resolved.rule], file, reference, lines, resolved);
        if (resolved.shadowedByDirectory)
            countRule(part.rules.directoryTrap, file, reference, lines, resolved);
    }
}
function countRule(use, file, reference, lines, resolved) {
    use.count += 1;
    use.example ??= {
        file,
        line: lines.at(reference.offset).line,
        url: detached(reference.url),
        served: resolved.file,
    };
}
/**
 * A copy of a string that shares no memory with the page it was cut from. V8 keeps a
 * substring as a view of its parent, so one kept URL would keep a whole page alive.
 */
/**
 * A broken link's target, copied once per target: thousands of links to one missing page
 * of a deep directory would otherwise each hold a copy of its long path.
 */
const keptPaths = new WeakMap();
function keptPath(target) {
    let kept = keptPaths.get(target);
    if (kept === undefined)
        keptPaths.set(target, (kept = detached(target.path)));
    return kept;
}
function detached(text) {
    return (' ' + text).slice(1);
}

;// CONCATENATED MODULE: ./.build/airgap/serving.js
/**
 * The nginx configuration that serves an export the way its links expect: the file,
 * then the file with `.html` appended (extensionless links), then the directory's
 * index. `$uri.html` must come before `$uri/`: Next.js writes a directory of RSC
 * payloads beside each page (`guides/x.html` and `guides/x/`), and a directory without
 * an index answers 403.
 */
function nginxConfig(serving, where = {}) {
    return [
        'server {',
        `    listen ${where.listen ?? '80'};`,
        `    root ${where.root ?? '/usr/share/nginx/html'};`,
        '    index index.html;',
        '    location / {',
        '        try_files $uri $uri.html $uri/ =404;',
        '    }',
        ...(serving.has404Page ? ['    error_page 404 /404.html;'] : []),
        '}',
    ].join('\n');
}
/** One line on what a plain static host would get wrong, or undefined when nothing. */
function servingVerdict(serving) {
    if (!serving.needsRewrites)
        return undefined;
    const example = serving.extensionless.example;
    const trap = serving.directoryTrap.count > 0
        ? ` ${serving.directoryTrap.count} of them also have a directory of the same name (${serving.directoryTrap.example?.served.replace(/\.html$/, '/')}): a server that tries the directory first answers 403.`
        : '';
    return `${serving.extensionless.count} internal link(s) leave out ".html" (e.g. ${example?.url} in ${example?.file} is served by ${example?.served}): a plain static host answers 404 for them, so the server needs a rewrite rule.${trap}`;
}

;// CONCATENATED MODULE: ./.build/airgap/check.js










/** GitHub shows 10 annotations of each level per step: more are dropped from view. */
const ANNOTATIONS_PER_LEVEL = 10;
/** Pages the browser loads: the home page and a sample of the others. */
const BROWSER_PAGES = 8;
/**
 * The readiness check of the extracted site, on the staging directory (so a failure
 * leaves `path` untouched). Every deployment type: internal links that lead nowhere.
 * `client-hosted` and `air-gapped`: what the pages load from outside the site (a
 * failure for air-gapped), what they link to outside, and what a browser loading a
 * sample of pages really requests. Writes the full report as JSON and SARIF.
 */
async function checkReadiness(stagingDir, config, reporter, record, context) {
    const now = context.now ?? Date.now;
    const started = now();
    const external = config.deploymentType !== 'cloud';
    const links = config.brokenLinks !== 'off';
    if (!external && !links)
        return;
    const listed = context.contents;
    const tree = listed?.directories
        ? site_tree/* SiteTree */.AI.of(stagingDir, listed.filePaths, ['', ...listed.directories])
        : await site_tree/* SiteTree */.AI.read(stagingDir);
    const scan = await scanSite(tree, {
        allowedHosts: config.allowedHosts,
        external,
        links,
        ...(context.signal ? { signal: context.signal } : {}),
        debug: (message) => reporter.debug(message),
    });
    const unread = scan.unreadFrames;
    if (unread.first !== undefined) {
        reporter.warning(`Documents in <iframe srcdoc> nested more than ${MAX_FRAME_DEPTH} deep were not read, in ${count(unread.count, 'place')} (the first inside the <iframe> at ${unread.first.file}, line ${unread.first.line}): what they load and link to is not checked.`, annotationAt(config, unread.first.file, unread.first.line, undefined, 'Frames not read'));
    }
    const pass = external ? await browserPass(tree, config, reporter, context.signal) : undefined;
    const findings = (0,airgap_findings/* findingsFromScan */.K7)(scan, config.deploymentType);
    if (pass && 'outside' in pass) {
        const fileOf = (page) => tree.resolve(page)?.file ?? page.replace(/^\//, '');
        findings.push(...(0,airgap_findings/* findingsFromBrowser */.ho)(pass, config.deploymentType, config.allowedHosts, fileOf));
    }
    const readiness = {
        deploymentType: config.deploymentType,
        scanned: scan.scanned,
        pages: scan.pages,
        durationMs: now() - started,
        hosts: (0,airgap_findings/* groupByHost */.NZ)(findings),
        findings,
        findingsDropped: scan.externalDropped,
        metadata: scan.metadata,
        unconfirmedHosts: scan.unconfirmed.size,
        links: {
            checked: scan.links.checked,
            brokenCount: scan.links.brokenCount,
            broken: scan.links.broken,
            severity: config.brokenLinks === 'fail' ? 'error' : 'warning',
        },
        missingFiles: pass && 'outside' in pass ? pass.missing : [],
        serving: {
            extensionless: scan.rules.html,
            directoryTrap: scan.rules.directoryTrap,
            directoryIndex: scan.rules.index,
            needsRewrites: scan.rules.html.count > 0,
            has404Page: tree.files.has('404.html'),
        },
        ...(pass
            ? {
                browser: 'outside' in pass
                    ? { ran: true, pages: pass.pages, failed: pass.failed }
                    : pass,
            }
            : {}),
    };
    let sarifWritten;
    // A cloud run with nothing to report leaves nothing behind in the runner's temp directory.
    if (external || readiness.links.brokenCount > 0) {
        const base = external_node_path_.join(context.tempDir, `static-export-${config.domain}-readiness`);
        readiness.reportFile = `${base}.json`;
        readiness.sarifFile = `${base}.sarif`;
        sarifWritten = await writeReportFiles(readiness, {
            json: readiness.reportFile,
            sarif: readiness.sarifFile,
            sitePath: external_node_path_.relative(process.cwd(), config.path) || '.',
        });
        reporter.setOutput('findings-file', readiness.reportFile);
        reporter.setOutput('sarif-file', readiness.sarifFile);
    }
    record.readiness = readiness;
    const headline = describe(readiness);
    reporter.info(headline);
    record.checks = [...(record.checks ?? []), headline];
    annotate(readiness, config, reporter);
    const verdict = servingVerdict(readiness.serving);
    if (verdict) {
        reporter.info(`Serving: ${verdict} This nginx configuration serves the export as its links expect:\n${nginxConfig(readiness.serving)}`);
    }
    else if (links) {
        reporter.info('Serving: every internal link names its file or a directory; any static host serves the tree as it is.');
    }
    if (readiness.reportFile)
        reporter.info(`Full report: ${readiness.reportFile} (SARIF: ${readiness.sarifFile}).`);
    if (sarifWritten && sarifWritten.sarifResultsLeftOut > 0)
        reporter.info(`SARIF: ${sarifWritten.sarifResults} results, one per URL, the most severe first; ${sarifWritten.sarifResultsLeftOut} more (${sarifWritten.sarifFindingsLeftOut} findings) are left out, as GitHub code scanning keeps no more than ${SARIF_LIMITS.results}. The JSON report lists them all.`);
    const loads = readiness.hosts.filter((h) => h.severity === 'error');
    const problems = [];
    if (loads.length > 0) {
        problems.push(`its pages load from ${loads.length} host(s) outside the site: ${namedHosts(loads, (h) => `${h.host} (${h.count})`)}`);
    }
    if (config.brokenLinks === 'fail' && readiness.links.brokenCount > 0) {
        problems.push(`${readiness.links.brokenCount} internal link(s) lead to no file of the export`);
    }
    if (problems.length > 0) {
        const fixes = [
            loads.length > 0
                ? 'Remove these from the docs (search, AI assistant, analytics and CDNs are unreachable there), or accept hosts you serve inside the network with `allowed-hosts`'
                : undefined,
            config.brokenLinks === 'fail' && readiness.links.brokenCount > 0
                ? 'fix the links, or set `broken-links: warn`'
                : undefined,
        ].filter(Boolean);
        const what = config.deploymentType === 'air-gapped' && loads.length > 0
            ? 'an air-gapped deployment'
            : 'deployment';
        throw new errors/* ActionError */.lZ(`The site is not ready for ${what}: ${problems.join('; ')}. ${fixes.join('; ')}. The full list is in the job summary and ${readiness.reportFile}; \`path\` was left as it was.`);
    }
}
async function browserPass(tree, config, reporter, signal) {
    if (config.browserCheck === 'false')
        return { ran: false, why: '`browser-check` is false' };
    const executablePath = findBrowser();
    const pages = samplePages(tree.pages(), BROWSER_PAGES);
    const why = !executablePath
        ? 'no Chromium found (install chromium-headless-shell, or set STATIC_EXPORT_BROWSER)'
        : pages.length === 0
            ? 'the site has no HTML page'
            : undefined;
    if (why !== undefined || !executablePath) {
        if (config.browserCheck === 'true')
            throw new errors/* ActionError */.lZ(`browser-check is true, but ${why}.`);
        reporter.info(`Headless browser pass skipped: ${why}.`);
        return { ran: false, why: why ?? '' };
    }
    const pass = await loadPagesInBrowser(tree, {
        executablePath,
        pages,
        ...(signal ? { signal } : {}),
    });
    const hosts = new Set(pass.outside.map((r) => new URL(r.url).host));
    reporter.info(`Headless browser pass (${external_node_path_.basename(executablePath)}): loaded ${pass.pages.length} page(s) served with the export's URL rules; ${pass.outside.length} request(s) to ${hosts.size} host(s) outside the site were blocked; ${pass.missing.length} request(s) for missing files.`);
    for (const failed of pass.failed)
        reporter.warning(`The browser could not load ${failed.page}: ${failed.error}`);
    return pass;
}
function count(n, one, many = `${one}s`) {
    return `${n} ${n === 1 ? one : many}`;
}
/** Hosts a line of the log names (the check's, the failure's): the rest are in the report. */
const HEADLINE_HOSTS = 10;
function namedHosts(hosts, name = (h) => h.host, limit = HEADLINE_HOSTS) {
    const named = hosts.slice(0, limit).map(name);
    const more = hosts.length - named.length;
    return `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
/** The one line that says what the check found, true about where the rest is. */
function describe(readiness) {
    const loads = readiness.hosts.filter((h) => h.role === 'load');
    const links = readiness.hosts.filter((h) => h.role === 'link');
    const parts = [];
    if (readiness.deploymentType !== 'cloud') {
        parts.push(loads.length === 0
            ? 'nothing is loaded from outside the site'
            : `loads from ${count(loads.length, 'host')} outside the site (${namedHosts(loads)})`);
        if (links.length > 0)
            parts.push(`links to ${count(links.length, 'outside host')}`);
    }
    parts.push(`${count(readiness.links.checked, 'internal link')} checked, ${readiness.links.brokenCount} broken`);
    return `${readiness.deploymentType} check: read ${count(readiness.scanned, 'file')} (${count(readiness.pages, 'page')}) in ${(0,duration/* formatDuration */.a3)(readiness.durationMs)}; ${parts.join('; ')}.`;
}
function annotationAt(config, file, line, column, title) {
    return {
        ...(title ? { title } : {}),
        file: external_node_path_.join(config.path, ...file.split('/')),
        ...(line !== undefined ? { startLine: line } : {}),
        ...(column !== undefined ? { startColumn: column } : {}),
    };
}
function hostMessage(host, deploymentType) {
    const where = host.locations.map((l) => `${l.file}${l.line !== undefined ? `:${l.line}` : ''}`);
    const more = host.count - host.locations.length - host.requestedBy.length;
    const seenAt = [
        ...where,
        ...(host.requestedBy.length > 0
            ? [`requested while loading ${host.requestedBy.slice(0, 3).join(', ')}`]
            : []),
    ].join(', ');
    const tail = more > 0 ? `, and ${more} more` : '';
    if (host.role === 'load') {
        return `Loads from ${host.host}, outside the site: ${count(host.count, 'reference')} (${host.vias.slice(0, 3).join('; ')}) at ${seenAt}${tail}.`;
    }
    const consequence = deploymentType === 'air-gapped'
        ? ' Readers who click these reach a dead end inside the network.'
        : '';
    return `Links to ${host.host}: ${count(host.count, 'link')} at ${seenAt}${tail}.${consequence}`;
}
/**
 * One annotation per host (loads first), at most ANNOTATIONS_PER_LEVEL per level (one fewer
 * for errors, which leave room for the step's failure); the last names the rest.
 */
function annotate(readiness, config, reporter) {
    const emit = (severity, message, annotation) => {
        if (severity === 'error')
            reporter.error(message, annotation);
        else if (severity === 'warning')
            reporter.warning(message, annotation);
        else
            reporter.notice(message, annotation);
    };
    const where = readiness.reportFile ? ` and in ${readiness.reportFile}` : '';
    for (const severity of ['error', 'warning', 'notice']) {
        const hosts = readiness.hosts.filter((h) => h.severity === severity);
        const brokenHere = readiness.links.severity === severity ? readiness.links.broken : [];
        // An error here always fails the step, whose own error line must stay among those shown.
        const budget = severity === 'error' ? ANNOTATIONS_PER_LEVEL - 1 : ANNOTATIONS_PER_LEVEL;
        const hostSlots = hosts.length > budget ? budget - 1 : hosts.length;
        for (const host of hosts.slice(0, hostSlots)) {
            const first = host.locations[0];
            const file = first?.file ?? host.requestedBy[0];
            emit(severity, hostMessage(host, readiness.deploymentType), file !== undefined
                ? annotationAt(config, file, first?.line, first?.column, host.role === 'load' ? 'Loads from outside the site' : 'Links outside the site')
                : undefined);
        }
        if (hosts.length > hostSlots) {
            const rest = hosts.slice(hostSlots);
            emit(severity, `${count(rest.length, 'more host')} outside the site: ${namedHosts(rest, (h) => `${h.host} (${h.count} ${h.role === 'load' ? 'loads' : 'links'})`, 50)}. Each is listed in the job summary${where}.`, { title: 'More hosts outside the site' });
        }
        const brokenSlots = Math.max(0, budget - Math.min(hosts.length, budget));
        const shown = brokenHere.slice(0, brokenHere.length > brokenSlots ? Math.max(0, brokenSlots - 1) : brokenSlots);
        for (const broken of shown) {
            emit(severity, `Broken link ${broken.url}: no file of the export serves ${broken.target}.`, annotationAt(config, broken.file, broken.line, broken.column, 'Broken internal link'));
        }
        const left = readiness.links.severity === severity ? readiness.links.brokenCount - shown.length : 0;
        if (left > 0) {
            emit(severity, `${count(left, shown.length > 0 ? 'more broken internal link' : 'broken internal link')}, listed in the job summary${where}.`, { title: 'Broken internal links' });
        }
    }
    if (readiness.missingFiles.length > 0) {
        const first = readiness.missingFiles.slice(0, 5);
        reporter.warning(`While loading pages the browser requested ${count(readiness.missingFiles.length, 'path')} that no file of the export serves: ${first.map((m) => `${m.path} (from ${m.page})`).join(', ')}${readiness.missingFiles.length > first.length ? ', …' : ''}.`, { title: 'Missing files' });
    }
}


/***/ })

};
