import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';

/**
 * A dispatcher whose name lookups fail with `codes`, one per lookup, as getaddrinfo fails
 * (`EAI_AGAIN`: the resolver did not answer; `ENOTFOUND`), then resolve every name to
 * loopback: no query leaves the machine. `lookups` records each name looked up.
 */
export function failingLookups(codes: string[]): { dispatcher: Agent; lookups: string[] } {
  const lookups: string[] = [];
  const dispatcher = new Agent({
    connect: {
      lookup: ((
        hostname: string,
        options: { all?: boolean },
        callback: Parameters<LookupFunction>[2],
      ) => {
        lookups.push(hostname);
        const code = codes.shift();
        if (code !== undefined) {
          const error = Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), {
            code,
            syscall: 'getaddrinfo',
            hostname,
          });
          return callback(error, options.all ? [] : '', 4);
        }
        if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
        return callback(null, '127.0.0.1', 4);
      }) as never,
    },
  });
  return { dispatcher, lookups };
}
