export const id = 729;
export const ids = [729];
export const modules = {

/***/ 1729:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ANNOTATIONS_PER_LEVEL: () => (/* binding */ ANNOTATIONS_PER_LEVEL),
  checkReadiness: () => (/* binding */ checkReadiness),
  describe: () => (/* binding */ describe)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./.build/duration.js
var duration = __webpack_require__(4184);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
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
                        await (0,external_node_timers_promises_.setTimeout)(50);
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

// EXTERNAL MODULE: ./.build/airgap/html.js
var html = __webpack_require__(178);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:string_decoder"
var external_node_string_decoder_ = __webpack_require__(6193);
// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __webpack_require__(5919);
// EXTERNAL MODULE: ./.build/worker-file.js
var worker_file = __webpack_require__(625);
// EXTERNAL MODULE: ./.build/airgap/css.js
var airgap_css = __webpack_require__(2496);
// EXTERNAL MODULE: ./.build/airgap/flight.js
var flight = __webpack_require__(3629);
// EXTERNAL MODULE: ./.build/airgap/js.js + 1 modules
var js = __webpack_require__(4100);
// EXTERNAL MODULE: ./.build/airgap/json-formats.js
var json_formats = __webpack_require__(156);
// EXTERNAL MODULE: ./.build/airgap/references.js
var references = __webpack_require__(8809);
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
/** An `.xhtml` page or an `.svg` image, which the export serves as XML. */
function isXmlDocument(file) {
    return /\.(?:xhtml|svg)$/i.test(file);
}
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
            await (0,external_node_timers_promises_.setImmediate)();
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
                await (0,external_node_timers_promises_.setImmediate)();
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
            const isPage = !/\.svg$/i.test(file);
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
            const scanner = new html/* HtmlScanner */.CH({
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
            }, 
            // Served as application/xhtml+xml and image/svg+xml: browsers parse them as XML.
            { xml: isXmlDocument(file) });
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
        const bytes = content ?? (await (0,promises_.readFile)(absolute));
        if (content === undefined)
            part.bytes = bytes.length;
        const source = wholeText(bytes);
        lines.append(source);
        if (kind === 'flight') {
            if (!/^[0-9a-f]*:/i.test(source))
                return part;
            part.scanned += 1;
            for (const found of (0,flight/* referencesInFlight */.I)(source))
                external(found);
        }
        else if (kind === 'css') {
            part.scanned += 1;
            for (const css of (0,airgap_css/* urlsInCss */.R)(source))
                external({ url: css.url, offset: css.offset, role: 'load', via: css.via });
        }
        else if (kind === 'js') {
            part.scanned += 1;
            for (const script of (0,js/* urlsInScript */.z)(source)) {
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
            const references = (0,json_formats/* referencesInWebManifest */.Fz)(source);
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
 * The report files' path without extension: `static-export-<domain>-readiness`, and in a
 * workflow, where that name is taken by an earlier step of the job, that name with the
 * step's id (`…-readiness-staging`). Without a step (the CLI), the next run replaces it.
 */
async function reportBase(context, domain) {
    const plain = external_node_path_.join(context.tempDir, `static-export-${domain}-readiness`);
    if (context.stepId === undefined)
        return plain;
    const step = context.stepId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[_.-]+/, '') || 'step';
    const taken = async (base) => (await Promise.all([`${base}.json`, `${base}.sarif`].map(exists))).some(Boolean);
    if (!(await taken(plain)))
        return plain;
    for (let n = 1;; n += 1) {
        const base = `${plain}-${step}${n === 1 ? '' : `-${n}`}`;
        if (!(await taken(base)))
            return base;
    }
}
async function exists(file) {
    return promises_.lstat(file).then(() => true, () => false);
}
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
        reporter.warning(`Documents in <iframe srcdoc> nested more than ${html/* MAX_FRAME_DEPTH */.rF} deep were not read, in ${count(unread.count, 'place')} (the first inside the <iframe> at ${unread.first.file}, line ${unread.first.line}): what they load and link to is not checked.`, annotationAt(config, unread.first.file, unread.first.line, undefined, 'Frames not read'));
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
        const base = await reportBase(context, config.domain);
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
