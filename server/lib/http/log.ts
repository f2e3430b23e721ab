/**
 * Structured one-line JSON logging to stderr. Callers pass fields, never raw requests or headers, so secrets
 * (cookies, Authorization, passwords) cannot slip into the log.
 */

export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

/** How much the log says, from errors only to debug detail (CONSOLE_LOG_LEVEL). */
export type LogLevel = "error" | "warn" | "info" | "debug";

const LEVELS: LogLevel[] = ["error", "warn", "info", "debug"];

/** Creates a logger writing lines at or above `level`; `write` is injectable for tests. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => console.error(line),
): Logger {
  const max = LEVELS.indexOf(level);
  const emit = (lvl: LogLevel) => (message: string, fields: LogFields = {}) => {
    if (LEVELS.indexOf(lvl) > max) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...fields }));
  };
  return { error: emit("error"), warn: emit("warn"), info: emit("info"), debug: emit("debug") };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = createLogger("error", () => {});
