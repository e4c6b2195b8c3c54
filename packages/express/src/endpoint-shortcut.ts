import type { NextFunction, Request, Response, Router } from 'express';

type Handle = (req: Request, res: Response, out: NextFunction) => void;

/**
 * Hand a request for the router's own path (its mount path, with or without a trailing slash or
 * a query) whose method is one of `methods` straight to `serve`, instead of walking the router's
 * layers (the well-known middleware, then the route) to reach the same handler: that walk parses
 * the URL, matches every layer and sets route state on `req` for every MCP request. Everything
 * before the router (the app's middleware, its checks) has run by then, as it would anyway, and
 * `serve` gets the app's `next`, so errors still reach the app's error handlers. Any other request,
 * and every request once a layer is added to the router, takes Express's own walk.
 */
export function shortcutEndpoint(router: Router, methods: ReadonlySet<string>, serve: Handle): void {
  const layers = router.stack.length;
  const walk = (router as unknown as { handle: Handle }).handle;
  // The router function calls router.handle on each request (Express 4 and 5 alike): an own property takes precedence.
  Object.defineProperty(router, 'handle', {
    configurable: true,
    writable: true,
    value: function handle(this: Router, req: Request, res: Response, out: NextFunction) {
      if (router.stack.length === layers && methods.has(req.method) && atRoot(req.url)) {
        // As the walk does: the router called as the app's own handler has no outer router to set it.
        if (!req.originalUrl) req.originalUrl = req.url;
        return serve(req, res, out);
      }
      return walk.call(this, req, res, out);
    },
  });
}

/** Whether a URL, as the router sees it under its mount path, is the mount path itself: `/`, or `/` with a query. */
function atRoot(url: string | undefined): boolean {
  return url === '/' || url?.startsWith('/?') === true;
}
