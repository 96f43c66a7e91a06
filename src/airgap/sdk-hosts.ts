import { SITE_ORIGIN } from './references.js';

/**
 * Hosts (and, where the same host also serves pages people link to, paths) of analytics,
 * chat, search, font, embed and CDN services: a URL string naming one of them in a script
 * is loaded by that script (their snippets build the final URL at run time, so no call
 * site holds the literal). `host` matches itself or a subdomain; `host/path` also needs
 * the URL's path to start with `/path`. A whole domain is listed only when it serves
 * nothing a reader is linked to: `youtube.com/@acme` and `docs.sentry.io` are links.
 */
export const SDK_HOSTS = [
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
function pathOf(url: string): string {
  try {
    return new URL(url, SITE_ORIGIN).pathname;
  } catch {
    return '';
  }
}

/** Whether `url`, whose host is `host`, is one an SDK on the list requests. */
export function isSdkUrl(url: string, host: string): boolean {
  const bare = host.replace(/:\d+$/, '').replace(/\.$/, '');
  let path: string | undefined;
  return KNOWN.some((known) => {
    if (bare !== known.host && !bare.endsWith(`.${known.host}`)) return false;
    if (known.path === undefined) return true;
    path ??= pathOf(url);
    return path.startsWith(known.path);
  });
}
