/** Configuration of the distributed commands: `--help`, then loadConfig plus the command's own requirements. */
import { ConfigError } from "../../infra/errors.ts";
import { type Config, configHelp, loadConfig } from "../config.ts";
import type { CliIo } from "../io.ts";

/** The config, or the exit code when it cannot run (help printed: 0; problems: 2, all listed at once). */
export function commandConfig(
  name: string,
  args: string[],
  io: CliIo,
  requirements: (config: Config) => string[],
): Config | number {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(`usage: tondex ${name} [--option value ...]\n\n${configHelp()}\n`);
    return 0;
  }
  try {
    const config = loadConfig(process.env, args);
    const problems = requirements(config);
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`tondex ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
