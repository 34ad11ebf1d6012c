/**
 * API documentation served from local npm assets only (pages must render offline, no CDN):
 * `/openapi.json`, Swagger UI at `/swagger-ui/` (swagger-ui-dist) and ReDoc at `/redoc` (redoc's
 * standalone bundle). Only a fixed list of asset files is served, so no path can escape the packages; the
 * pages carry a Content-Security-Policy that keeps them on this host (`DOCS_CSP`).
 */
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Router from "@koa/router";
import type { Context } from "koa";
import { openApiDocument } from "./route.ts";

const require = createRequire(import.meta.url);

const SWAGGER_FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const SWAGGER_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>tondex API — Swagger UI</title>
  <link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="/swagger-ui/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/swagger-ui/swagger-ui-standalone-preset.js"></script>
  <script>
    window.onload = function () {
      window.ui = SwaggerUIBundle({
        url: "/openapi.json",
        dom_id: "#swagger-ui",
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout",
        // No validator badge: it would send the document's URL to validator.swagger.io.
        validatorUrl: null
      });
    };
  </script>
</body>
</html>
`;

const REDOC_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>tondex API — ReDoc</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
  <redoc spec-url="/openapi.json"></redoc>
  <script src="/redoc/redoc.standalone.js"></script>
</body>
</html>
`;

/**
 * The docs pages load nothing from another host, whatever the bundles would try: ReDoc's sidebar shows
 * Redocly's logo from cdn.redoc.ly (no option turns it off; blocked here, its image then hides itself),
 * and any future third-party asset is refused the same way. Inline scripts and styles, blob: workers
 * (ReDoc's search) and eval (ReDoc's schema sampler) stay allowed: this policy is about where the pages
 * reach, not about hardening them.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
].join("; ");

function sendPage(ctx: Context, html: string): void {
  ctx.type = "text/html; charset=utf-8";
  ctx.set("Content-Security-Policy", DOCS_CSP);
  ctx.body = html;
}

function sendFile(ctx: Context, path: string, type: string): void {
  ctx.type = type;
  ctx.set("Cache-Control", "public, max-age=3600");
  ctx.body = createReadStream(path);
}

export function docsRouter(): Router {
  const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));
  const redocBundle = require.resolve("redoc/bundles/redoc.standalone.js");
  const router = new Router();
  router.get("/openapi.json", (ctx) => {
    ctx.body = openApiDocument();
  });
  // The router ignores a trailing slash, so one route serves both and redirects the bare form: the page's
  // relative links resolve against `/swagger-ui/`.
  router.get("/swagger-ui", (ctx) => {
    if (!ctx.path.endsWith("/")) return ctx.redirect("/swagger-ui/");
    sendPage(ctx, SWAGGER_HTML);
  });
  router.get("/swagger-ui/:file", async (ctx, next) => {
    const type = SWAGGER_FILES[ctx.params.file ?? ""];
    if (type === undefined) await next();
    else sendFile(ctx, join(swaggerDir, ctx.params.file as string), type);
  });
  router.get("/redoc", (ctx) => sendPage(ctx, REDOC_HTML));
  router.get("/redoc/redoc.standalone.js", (ctx) =>
    sendFile(ctx, redocBundle, "text/javascript; charset=utf-8"),
  );
  return router;
}
