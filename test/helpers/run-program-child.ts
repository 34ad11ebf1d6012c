/**
 * A child process for test/unit/bin/run-program.test.ts: `node --import tsx run-program-child.ts MODE`
 * runs a command under `runProgram` that ends as MODE says.
 */
import { runProgram } from "../../bin/run-program.ts";

const mode = process.argv[2];
await runProgram(async () => {
  switch (mode) {
    case "rejection":
      void Promise.reject(new Error("nobody awaited this"));
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      return 0;
    case "exception":
      setTimeout(() => {
        throw new TypeError("thrown in a timer");
      }, 10);
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      return 0;
    case "throws":
      throw new RangeError("the command itself failed");
    default:
      return Number(mode);
  }
});
