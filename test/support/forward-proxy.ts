import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** `CONNECT host:port` and `GET host:port` lines, one per tunnel or proxied request. */
  seen: string[];
  /**
   * HTTP requests that went through, tunnels included (their request lines are read from
   * the plain-text stream), as `METHOD host:port path`.
   */
  requests: string[];
  stop(): Promise<void>;
}

const REQUEST_LINE = /(?:^|\r\n)(GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/g;

/**
 * A small forward proxy on loopback: CONNECT tunnels and absolute-form requests, the two
 * ways a client uses HTTP_PROXY. With `trap`, it forwards nothing and answers 502, to catch
 * any request at all.
 */
export async function startForwardProxy({ trap = false } = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    seen.push(`${req.method} ${target.host}`);
    requests.push(`${req.method} ${target.host} ${target.pathname}`);
    if (trap) {
      res.writeHead(502).end();
      return;
    }
    const upstream = http.request(
      target,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const host = req.url ?? '';
    seen.push(`CONNECT ${host}`);
    if (trap) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const [hostname, port] = host.split(':');
    const upstream = net.connect(Number(port), hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      // A request line starts a chunk or follows a CRLF; a line cut between two chunks is
      // carried over (a body is not: what follows it starts the next chunk).
      let tail = '';
      const sniff = (chunk: Buffer) => {
        const text = tail + chunk.toString('latin1');
        for (const match of text.matchAll(REQUEST_LINE)) {
          requests.push(`${match[1]} ${host} ${(match[2] ?? '').split('?')[0]}`);
        }
        const rest = text.slice(text.lastIndexOf('\r\n') + 2);
        tail = rest.length < 4096 && /^[A-Z]{1,7}( \S*( H\S*)?)?$/.test(rest) ? rest : '';
      };
      if (head.length > 0) sniff(head);
      socket.on('data', sniff);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
