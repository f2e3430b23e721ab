/**
 * Route areas whose modules load with their first request, not at start (issue 25: a console that is never
 * asked for its bucket pages never compiles them, and answers its first request sooner). An area names the
 * first path segments it answers, so a request elsewhere loads nothing; `tests/api/lazy_areas_test.ts` checks
 * that every route an area builds lies under the segments it names.
 *
 * Hono builds its router once, so an area cannot join the app's router after start. It is built as an app of
 * its own and given the request with everything the middleware before it found (session, access, request
 * id): its handlers see the same context they would have seen mounted directly, and its errors reach the
 * console's error handler.
 */
import { type Env, Hono, type MiddlewareHandler } from "hono";

export interface LazyArea<E extends Env> {
  /** First path segments, after the prefix, of every route the area builds. */
  segments: readonly string[];
  /** Imports the area's module and builds its routes (once, at its first request). */
  load: () => Promise<Hono<E>>;
}

/** What the middleware before an area found, keyed by the request the area's app is given. */
const carried = new WeakMap<Request, object>();
/** Requests an area has no route for: they go on to the routes after the areas. */
const outsideArea = new WeakSet<Request>();

/**
 * An area whose module is imported by URL at its first request. By URL, not `import("./x.tsx")`: Deno reads
 * every literal dynamic import of a program into the graph it loads before the program runs, so a literal
 * one would still be read at start. `build` takes the module's type, which costs nothing at run time.
 */
export function lazyArea<E extends Env, M>(
  segments: readonly string[],
  module: URL,
  build: (loaded: M) => Hono<E>,
): LazyArea<E> {
  return { segments, load: async () => build(await import(module.href)) };
}

/** The path's first segment after `prefix` ("/api/v1/buckets/x" → "buckets"), or null outside the prefix. */
export function firstSegment(path: string, prefix: string): string | null {
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  const end = rest.indexOf("/");
  return end === -1 ? rest : rest.slice(0, end);
}

/** Builds an area's app around its routes, mounted at `mount`: the carried context first, no error handling. */
function areaApp<E extends Env>(routes: Hono<E>, mount: string): Hono<E> {
  const app = new Hono<E>();
  app.use(async (c, next) => {
    const found = carried.get(c.req.raw) ?? {};
    for (const [key, value] of Object.entries(found)) c.set(key as never, value as never);
    await next();
  });
  app.route(mount, routes);
  app.notFound((c) => {
    outsideArea.add(c.req.raw);
    return c.body(null, 404);
  });
  // Thrown on to the console's error handler, which knows sessions, sign-in and error pages.
  app.onError((error) => {
    throw error;
  });
  return app;
}

interface Loading<E extends Env> {
  area: LazyArea<E>;
  app?: Promise<Hono<E>>;
}

/**
 * One middleware for all of `areas`, whose routes are written from `prefix` ("/", or "/api/v1/" for API
 * areas mounted there): a request whose first segment after `prefix` is one an area names is answered by that
 * area (loaded now if it is the first). Areas that share a segment are asked in their order, as routes mounted
 * one after another would be; a request none of them answers goes on.
 */
export function lazyAreas<E extends Env>(
  prefix: string,
  areas: readonly LazyArea<E>[],
): MiddlewareHandler<E> {
  const mount = prefix === "/" ? "/" : prefix.replace(/\/$/, "");
  const bySegment = new Map<string, Loading<E>[]>();
  for (const area of areas) {
    const loading: Loading<E> = { area };
    for (const segment of area.segments) bySegment.set(segment, [...bySegment.get(segment) ?? [], loading]);
  }
  const appOf = (loading: Loading<E>) =>
    loading.app ??= loading.area.load().then((routes) => areaApp(routes, mount), (error) => {
      loading.app = undefined; // a failed import is tried again by the next request
      throw error;
    });
  return async (c, next) => {
    const segment = firstSegment(c.req.path, prefix);
    for (const loading of (segment === null ? undefined : bySegment.get(segment)) ?? []) {
      const app = await appOf(loading);
      carried.set(c.req.raw, c.var);
      outsideArea.delete(c.req.raw);
      const response = await app.fetch(c.req.raw, c.env);
      if (!outsideArea.has(c.req.raw)) return response;
    }
    await next();
  };
}
