/**
 * API documentation served from local npm assets only (pages must render offline, no CDN):
 * `/openapi.json`, Swagger UI at `/swagger-ui/` (swagger-ui-dist) and ReDoc at `/redoc` (redoc's
 * standalone bundle). Only a fixed list of asset files is served, so no path can escape the packages.
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
        layout: "StandaloneLayout"
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
    ctx.type = "text/html; charset=utf-8";
    ctx.body = SWAGGER_HTML;
  });
  router.get("/swagger-ui/:file", async (ctx, next) => {
    const type = SWAGGER_FILES[ctx.params.file ?? ""];
    if (type === undefined) await next();
    else sendFile(ctx, join(swaggerDir, ctx.params.file as string), type);
  });
  router.get("/redoc", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = REDOC_HTML;
  });
  router.get("/redoc/redoc.standalone.js", (ctx) =>
    sendFile(ctx, redocBundle, "text/javascript; charset=utf-8"),
  );
  return router;
}
