import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

// Only these files of the swagger-ui-dist package are served: nothing else on disk is reachable.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Gatehouse API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// Groups start closed: with every group open Swagger UI 5.35 drew only the first of our 24 (no error shown).
const INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true,
  docExpansion: 'none', defaultModelsExpandDepth: 0, tryItOutEnabled: false });`;

/** GET /docs: a readable reference rendered from /v1/openapi.json, served from files installed from npm (no CDN). */
export function docsPage(): Middleware {
  const cache = new Map<string, Buffer>();
  const root = getAbsoluteFSPath();
  return async (ctx, next) => {
    if (ctx.method !== 'GET' || !(ctx.path === '/docs' || ctx.path.startsWith('/docs/'))) {
      await next();
      return;
    }
    const name = ctx.path === '/docs' || ctx.path === '/docs/' ? 'index.html' : ctx.path.slice('/docs/'.length);
    if (name === 'index.html') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    if (name === 'init.js') {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = INIT;
      return;
    }
    const type = ASSETS[name];
    if (!type) {
      await next();
      return;
    }
    let file = cache.get(name);
    if (!file) {
      file = await fs.readFile(path.join(root, name));
      cache.set(name, file);
    }
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = file;
  };
}
