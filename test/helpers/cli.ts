/** Run the tondex CLI in-process with captured output and optional standard input. */
import { main } from "../../bin/main.ts";

export type CliRun = { code: number; stdout: string; stderr: string };

export async function runCli(args: string[], stdin = ""): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => stdin,
  });
  return { code, stdout, stderr };
}
