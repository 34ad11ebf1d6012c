/**
 * A CLI command's finite pipeline run (replay, backfill): SIGINT/SIGTERM stop it cleanly, the progress
 * line ends with it, its result is printed as one JSON line on stdout, and the store is closed whatever
 * happens. A failure is one line on stderr and exit code 1.
 */
import type { CliIo } from "./io.ts";
import type { Pipeline, PipelineResult } from "./pipeline.ts";
import type { Progress } from "./progress.ts";

export async function runToEnd(
  pipeline: Pipeline,
  o: {
    command: string;
    io: CliIo;
    progress: Progress;
    /** What is printed of the result, and the exit code it means. */
    report: (result: PipelineResult) => { line: object; exitCode: number };
  },
): Promise<number> {
  const stop = () => void pipeline.stop();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const result = await pipeline.done;
    o.progress.done();
    const { line, exitCode } = o.report(result);
    o.io.stdout(`${JSON.stringify(line)}\n`);
    return exitCode;
  } catch (error) {
    o.io.stderr(`tondex ${o.command}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await pipeline.store.close();
  }
}
