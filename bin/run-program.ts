/**
 * The CLI's outermost frame (STYLE practice 7; squid's `runProgram`): runs a command and turns its
 * result into the exit code. A programmer error that escapes every handler (an unhandled rejection, an
 * uncaught exception, or the command itself throwing) is logged through the structured logger as one
 * `fatal` line and ends the process with exit code 1, instead of Node's bare stack trace on stderr or a
 * process that keeps running with broken state.
 */
import { createLogger, type Logger } from "../infra/log.ts";

/** Exit code of a fatal error (an expected failure is a command's own non-zero return). */
export const EXIT_FATAL = 1;

export type ProgramOptions = {
  /** Default: a JSON logger on stdout named "tondex" (fatal lines are written synchronously). */
  readonly logger?: Logger;
  /** Default: `process.exit`. */
  readonly exit?: (code: number) => void;
};

export async function runProgram(main: () => Promise<number>, options: ProgramOptions = {}): Promise<void> {
  const logger = options.logger ?? createLogger({ level: "info", name: "tondex" });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let ended = false;
  const fatal = (error: unknown, what: string) => {
    if (ended) return;
    ended = true;
    logger.fatal({ err: error }, what);
    logger.flush?.();
    exit(EXIT_FATAL);
  };
  process.on("unhandledRejection", (reason) => fatal(reason, "unhandled rejection"));
  process.on("uncaughtException", (error) => fatal(error, "uncaught exception"));
  try {
    const code = await main();
    if (!ended) process.exitCode = code;
  } catch (error) {
    fatal(error, "command failed");
  }
}
