/**
 * A start that cannot go on, said in one line. An address that cannot be had names the setting that chose it:
 * `CONSOLE_PORT: 0.0.0.0:9090 is already in use` (main.ts prints it after "Deck cannot start: ").
 */
import { ListenError } from "../lib/http/listen_error.ts";

export class StartError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StartError";
  }
}

/** A `.catch` handler that names `setting` on a ListenError and passes any other error on unchanged. */
export function naming(setting: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof ListenError) throw new StartError(`${setting}: ${error.message}`, { cause: error });
    throw error;
  };
}
