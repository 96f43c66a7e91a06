/**
 * Scans the site in the directory given as the argument on one thread and prints what it
 * kept and counted, as JSON: run in a child process, under a heap limit of the test's.
 */
import { scanSite } from '../../src/airgap/scan.js';
import { SiteTree } from '../../src/airgap/site-tree.js';

const result = await scanSite(await SiteTree.read(process.argv[2] as string), {
  allowedHosts: [],
  external: true,
  links: false,
  threads: { count: 0, fromSiteBytes: Number.POSITIVE_INFINITY },
});
console.log(
  JSON.stringify({
    external: result.external.length,
    externalDropped: result.externalDropped,
    unconfirmed: result.unconfirmed.size,
  }),
);
