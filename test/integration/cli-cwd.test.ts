/**
 * The CLI works from any working directory: `tondex start` launched from a temporary directory (as an
 * installed `tondex` or `bin/tondex` from elsewhere is) serves its API. tsx would otherwise look for a
 * tsconfig in the working directory and compile the routes' decorators the wrong way.
 * Starts the service itself (embedded default, a short devnet run) and stops it.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";

const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

test("tondex start from another working directory serves the API", async (t) => {
  const cwd = await mkdtemp(join(tmpdir(), "tondex-cwd-"));
  const port = await freePort();
  const child = spawn(process.execPath, [TONDEX, "start"], {
    cwd,
    env: {
      ...process.env,
      PORT: `${port}`,
      DATA_DIR: join(cwd, "data"),
      DEVNET_BLOCKS: "20",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    let status = 0;
    for (let i = 0; i < 120 && status !== 200 && child.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = await fetch(`http://127.0.0.1:${port}/v1/routers`).then(
        (r) => r.status,
        () => 0,
      );
    }
    t.is(status, 200, stderr.slice(-2000));
  } finally {
    child.kill("SIGTERM");
    await exited;
    await rm(cwd, { recursive: true, force: true });
  }
});
