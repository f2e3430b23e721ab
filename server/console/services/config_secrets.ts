/**
 * Secrets in configuration values never leave the console server (spec 2 §3, issue "secrets masked"): a GET
 * shows them as SECRET_MASK, whole (tokens, passwords) or just the password inside a connection string, DSN
 * or URL; a PUT that sends the mask back keeps the stored secret.
 */
import { SECRET_MASK } from "../../lib/contract/settings_fields.ts";

/** Keys whose whole value is a secret, in any subsystem. */
const SECRET_KEYS = new Set([
  "auth_token",
  "password",
  "token",
  "sasl_password",
  "client_secret",
  "lookup_bind_password",
  "secret_key",
  "accountkey",
]);

interface Embedded {
  /** The secret inside the value, or undefined when it holds none. */
  get(value: string): string | undefined;
  /** The value with its secret replaced. */
  set(value: string, secret: string): string;
}

const connectionString: Embedded = {
  get: (value) => /(?:^|\s)password=(\S*)/.exec(value)?.[1],
  set: (value, secret) => value.replace(/((?:^|\s)password=)\S*/, `$1${secret}`),
};

const dsn: Embedded = {
  get: (value) => /^[^:@]*:(.*)@(?:tcp)?\(/.exec(value)?.[1],
  set: (value, secret) => value.replace(/^([^:@]*:)(.*)(@(?:tcp)?\()/, `$1${secret}$3`),
};

const urlPassword: Embedded = {
  get: (value) => {
    try {
      const password = new URL(value).password;
      return password ? decodeURIComponent(password) : undefined;
    } catch {
      return undefined;
    }
  },
  set: (value, secret) => {
    const at = value.indexOf("@");
    const scheme = value.indexOf("://");
    if (at === -1 || scheme === -1) return value;
    const userinfo = value.slice(scheme + 3, at);
    const colon = userinfo.indexOf(":");
    if (colon === -1) return value;
    return `${value.slice(0, scheme + 3)}${userinfo.slice(0, colon + 1)}${
      secret === SECRET_MASK ? secret : encodeURIComponent(secret)
    }${value.slice(at)}`;
  },
};

function embeddedOf(key: string): Embedded | undefined {
  if (key === "connection_string") return connectionString;
  if (key === "dsn_string") return dsn;
  if (key === "url" || key === "broker" || key === "endpoint") return urlPassword;
  return undefined;
}

/** The value as a GET may show it. */
export function maskValue(key: string, value: string): string {
  if (!value) return value;
  if (SECRET_KEYS.has(key)) return SECRET_MASK;
  const embedded = embeddedOf(key);
  if (embedded?.get(value)) return embedded.set(value, SECRET_MASK);
  return value;
}

/**
 * The value to store for what a form sent back: a mask stands for the stored secret. Returns null when the
 * key should not be sent at all (a masked whole secret: the storage keeps what it has).
 */
export function restoreValue(key: string, sent: string, stored: string | undefined): string | null {
  if (SECRET_KEYS.has(key)) return sent === SECRET_MASK ? null : sent;
  const embedded = embeddedOf(key);
  if (embedded && embedded.get(sent) === SECRET_MASK) {
    const secret = stored === undefined ? undefined : embedded.get(stored);
    return secret === undefined ? embedded.set(sent, "") : embedded.set(sent, secret);
  }
  return sent;
}

/** Whether any value of a form still carries a mask that needs the stored values to restore. */
export const needsStored = (keyValues: { key: string; value: string }[]) =>
  keyValues.some(({ key, value }) => !SECRET_KEYS.has(key) && embeddedOf(key)?.get(value) === SECRET_MASK);
