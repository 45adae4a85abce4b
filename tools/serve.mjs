// serve.mjs: a static file server for build/web on 127.0.0.1, used by
// `./build.sh` (serve) and by the browser suites (tests/browser/suite_main.mjs).
//
// Does: serve files under one folder with the right MIME types (application/
// wasm, so browsers compile the wasm while it streams), no caching, 404 for
// anything outside the folder, optional extra headers (--cors adds
// Access-Control-Allow-Origin: *, what a sandboxed iframe's fetches need).
// Binds 127.0.0.1 only.
// Does not: list folders, follow requests outside the folder, or need any
// npm package (node's http module only).
//
// Run: node tools/serve.mjs [folder=build/web] [port=$PORT or 8000] [--cors]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

// Starts serving `dir` on 127.0.0.1:`port` (0 = any free port); resolves to the
// listening http.Server (server.address().port is the port).
// headers: extra response headers for every file (a second origin serving
// Headroom to course pages sends Access-Control-Allow-Origin: *; a page under
// test may get a Content-Security-Policy).
export function serveStatic(dir, port = 0, { headers = {} } = {}) {
  const root = path.resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' });
        res.end();
        return;
      }
      let rel = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.join(root, path.normalize(rel));
      if (!file.startsWith(root + path.sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      const missing = err.code === 'ENOENT' || err.code === 'EISDIR' || err instanceof URIError;
      res.writeHead(missing ? 404 : 500, headers);
      res.end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).filter((a) => a !== '--cors');
  const cors = process.argv.includes('--cors') ? { 'Access-Control-Allow-Origin': '*' } : {};
  const dir = args[0] || 'build/web';
  const port = Number(args[1] || process.env.PORT || 8000);
  const server = await serveStatic(dir, port, { headers: cors });
  console.log(`serving ${dir} on http://127.0.0.1:${server.address().port}/ (Ctrl-C stops)`);
}
