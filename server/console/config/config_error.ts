/** A setting with a bad value; start-up stops with its message. */
export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = "ConfigError";
  }
}
