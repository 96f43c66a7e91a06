import { agentRoutes } from './agent-routes.js';
import { checkAuthorization } from './auth.js';
import type { Exchange, ServerContext } from './exchange.js';
import { apiFaultAnswer, createExchangeServer, safeDecode, sendError } from './exchange.js';
import { exportRoutes } from './export-routes.js';
import type { ApiDeps, ApiRoute } from './routes.js';

/** The admin API server. */
export function createApiServer(ctx: ServerContext, deps: ApiDeps) {
  const routes = [...exportRoutes(ctx, deps), ...agentRoutes(ctx, deps)];
  return createExchangeServer(ctx, {
    server: 'api',
    routeOf: (_method, pathname) => routes.find((r) => r.pattern.test(pathname))?.name ?? 'unknown',
    answerFault: apiFaultAnswer,
    intercept: deps.control,
    handle: (ex) => dispatch(deps, routes, ex),
  });
}

async function dispatch(deps: ApiDeps, routes: ApiRoute[], ex: Exchange): Promise<void> {
  const method = ex.req.method ?? 'GET';
  const auth = checkAuthorization(ex.req.headers.authorization, method, deps.options.keys);
  if (!auth.ok) {
    sendError(ex, auth.status, auth.error);
    return;
  }
  const matching = routes.filter((route) => route.pattern.test(ex.url.pathname));
  if (matching.length === 0) {
    sendError(ex, 404, `Not found: ${method} ${ex.url.pathname}`);
    return;
  }
  const effective = method === 'HEAD' ? 'GET' : method;
  const route = matching.find((r) => r.method === effective);
  if (route === undefined) {
    const allow = matching.map((r) => r.method).join(', ');
    sendError(ex, 405, `Method ${method} not allowed here; use ${allow}`, { allow });
    return;
  }
  const params = (route.pattern.exec(ex.url.pathname) ?? []).slice(1).map(safeDecode);
  await route.handle(ex, params);
}
