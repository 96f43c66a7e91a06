/**
 * Hosts of analytics, chat, search, font, embed and CDN services: a URL string naming
 * one of them in a script is loaded by that script (their snippets build the final URL
 * at run time, so no call site holds the literal). Matched as the host or a subdomain.
 */
export const SDK_HOSTS = [
  // Analytics and tag managers
  'googletagmanager.com',
  'google-analytics.com',
  'analytics.google.com',
  'doubleclick.net',
  'segment.com',
  'segment.io',
  'posthog.com',
  'mixpanel.com',
  'mxpnl.com',
  'amplitude.com',
  'heap.io',
  'heapanalytics.com',
  'fullstory.com',
  'hotjar.com',
  'hotjar.io',
  'plausible.io',
  'usefathom.com',
  'clarity.ms',
  'cloudflareinsights.com',
  'sentry.io',
  'sentry-cdn.com',
  'hs-scripts.com',
  'hs-analytics.net',
  'hsforms.net',
  'koala.live',
  'june.so',
  // Chat and support widgets
  'intercom.io',
  'intercomcdn.com',
  'crisp.chat',
  'zdassets.com',
  'zopim.com',
  'drift.com',
  'driftt.com',
  'front.com',
  'frontapp.com',
  'kapa.ai',
  'inkeep.com',
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
  // Embeds
  'youtube.com',
  'youtube-nocookie.com',
  'ytimg.com',
  'player.vimeo.com',
  'js.stripe.com',
];

export function isSdkHost(host: string): boolean {
  const bare = host.replace(/:\d+$/, '');
  return SDK_HOSTS.some((known) => bare === known || bare.endsWith(`.${known}`));
}
