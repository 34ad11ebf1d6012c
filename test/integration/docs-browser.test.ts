/**
 * The docs pages in a real browser, offline: headless Chromium (Debian's `chromium`, driven by
 * puppeteer-core over a pipe) opens `/swagger-ui/` and `/redoc` with every request that is not to this
 * API refused — by the page's request interception, and at the browser level by a proxy that points
 * nowhere — and each page must render the list of operations. The host is a name, not localhost (Swagger
 * UI only skips its validator badge for localhost), mapped to 127.0.0.1 inside Chromium.
 *
 * Asserted: no request left for another host; no Content-Security-Policy violation on Swagger UI (its
 * validator badge is off); on ReDoc, none but its sidebar logo from cdn.redoc.ly, which the policy stops
 * before any connection is made (api/docs.ts); a screenshot of each page is a non-empty PNG.
 *
 * Skipped, saying so, only when no Chromium binary is installed (`apt-get install chromium`; .ci/run does).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import puppeteer, { type Browser } from "puppeteer-core";
import { type RunningApi, startApi } from "../unit/api/harness.ts";

const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p),
);
const HOST = "tondex.test";
/** Operations in the OpenAPI document (every route and alias). */
const OPERATIONS = 28;

const test = anyTest as TestFn<{ api: RunningApi; browser: Browser; dir: string; origin: string }>;
const browserTest = CHROMIUM === undefined ? test.skip : test.serial;
const skipNote = CHROMIUM === undefined ? " — SKIPPED: no Chromium binary (apt-get install chromium)" : "";

test.before(async (t) => {
  if (CHROMIUM === undefined) return;
  const api = await startApi();
  const port = new URL(api.baseURL).port;
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    pipe: true,
    headless: true,
    args: [
      "--no-sandbox", // CI runs as root
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      // Whatever escapes the page's interception (the browser's own traffic) goes to a closed local port.
      "--proxy-server=http://127.0.0.1:9",
      `--proxy-bypass-list=${HOST}`,
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-domain-reliability",
      "--no-first-run",
      "--disable-gpu",
    ],
  });
  t.context = {
    api,
    browser,
    dir: await mkdtemp(join(tmpdir(), "tondex-docs-")),
    origin: `http://${HOST}:${port}`,
  };
});
test.after.always(async (t) => {
  if (CHROMIUM === undefined) return;
  await t.context.browser?.close();
  await t.context.api?.close();
  if (t.context.dir) await rm(t.context.dir, { recursive: true, force: true });
});

type Visit = {
  blocked: string[];
  violations: string[];
  console: string[];
  screenshot: Buffer;
  operations: number;
};

/** Opens `path` with every request off this API refused; waits for `selector` to appear `min` times. */
async function visit(
  t: { context: { browser: Browser; origin: string; dir: string } },
  path: string,
  selector: string,
  min: number,
): Promise<Visit> {
  const { browser, origin, dir } = t.context;
  const page = await browser.newPage();
  const blocked: string[] = [];
  const consoleLines: string[] = [];
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith(`${origin}/`) || url.startsWith("data:") || url.startsWith("blob:")) {
      void req.continue();
    } else {
      blocked.push(url);
      void req.abort("blockedbyclient");
    }
  });
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  // Page-side code as text: this project's TypeScript has no DOM types.
  await page.evaluateOnNewDocument(
    "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.blockedURI));",
  );
  await page.goto(`${origin}${path}`, { waitUntil: "load", timeout: 60_000 });
  await page.waitForFunction(`document.querySelectorAll(${JSON.stringify(selector)}).length >= ${min}`, {
    timeout: 60_000,
  });
  const operations = (await page.$$(selector)).length;
  // Let late requests (images, workers) start before they are counted.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const violations = (await page.evaluate("window.__violations")) as string[];
  const file = join(dir, `${path.replace(/\W+/g, "_")}.png`);
  await page.screenshot({ path: file as `${string}.png` });
  await page.close();
  return { blocked, violations, console: consoleLines, screenshot: await readFile(file), operations };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

browserTest(
  `Swagger UI renders every operation offline, without its validator badge${skipNote}`,
  async (t) => {
    const v = await visit(t, "/swagger-ui/", ".opblock", OPERATIONS);
    t.log(`operations rendered: ${v.operations}; console: ${v.console.length} lines`);
    t.true(v.operations >= OPERATIONS);
    t.deepEqual(v.blocked, [], "no request for another host");
    t.deepEqual(v.violations, [], "nothing the page policy had to stop (validator badge off)");
    t.true(v.screenshot.subarray(0, 8).equals(PNG) && v.screenshot.length > 10_000, "a PNG screenshot");
  },
);

browserTest(
  `ReDoc renders every operation offline; its cdn.redoc.ly logo is never fetched${skipNote}`,
  async (t) => {
    const v = await visit(t, "/redoc", '[data-section-id^="operation/"]', OPERATIONS);
    t.log(
      `operations rendered: ${v.operations}; stopped by the page policy: ${JSON.stringify(v.violations)}`,
    );
    t.true(v.operations >= OPERATIONS);
    t.deepEqual(v.blocked, [], "no request for another host");
    for (const uri of v.violations)
      t.regex(uri, /^https:\/\/cdn\.redoc\.ly\//, "only the sidebar logo is stopped");
    t.true(v.screenshot.subarray(0, 8).equals(PNG) && v.screenshot.length > 10_000, "a PNG screenshot");
  },
);
