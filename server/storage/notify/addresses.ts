/**
 * The connection strings and names notification targets are configured with, parsed and checked without
 * loading any client library (config validation needs these; the clients load only for running targets).
 */

/** A plain SQL identifier or a double-quoted one (MinIO's table-name rule). */
export const SQL_TABLE = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"[^"]+")$/;

/** libpq keyword/value string (`host=… port=… user=… password=… dbname=… sslmode=…`) → its pairs. */
export function parseConnectionString(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(\S*))/g;
  for (const m of text.matchAll(re)) out[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3];
  return out;
}

/** MySQL table names: a plain identifier. */
export const MYSQL_TABLE = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export interface MysqlDsn {
  user: string;
  password: string;
  host: string;
  port: number;
  database: string;
}

/** Parses Go's MySQL DSN `user:password@tcp(host:port)/dbname[?params]`; null when it is not one. */
export function parseDsn(dsn: string): MysqlDsn | null {
  const slash = dsn.lastIndexOf("/");
  if (slash === -1) return null;
  const database = dsn.slice(slash + 1).split("?")[0];
  const head = dsn.slice(0, slash);
  const at = head.lastIndexOf("@");
  const credentials = at === -1 ? "" : head.slice(0, at);
  const address = at === -1 ? head : head.slice(at + 1);
  const m = /^(?:tcp)?\(([^)]*)\)$/.exec(address) ?? (address === "" ? ["", "127.0.0.1:3306"] : null);
  if (!m) return null;
  const [host, port = "3306"] = m[1].split(/:(?=\d+$)/);
  const colon = credentials.indexOf(":");
  return {
    user: colon === -1 ? credentials : credentials.slice(0, colon),
    password: colon === -1 ? "" : credentials.slice(colon + 1),
    host: host || "127.0.0.1",
    port: Number(port),
    database,
  };
}

/** MinIO brokers are `tcp://`, `ssl://`, `tls://`, `ws://` or `wss://` URIs. */
export function brokerUrl(broker: string): string {
  const url = new URL(broker);
  const scheme = {
    "tcp:": "mqtt:",
    "mqtt:": "mqtt:",
    "ssl:": "mqtts:",
    "tls:": "mqtts:",
    "mqtts:": "mqtts:",
    "ws:": "ws:",
    "wss:": "wss:",
  }[url.protocol];
  if (!scheme) throw new Error(`unsupported MQTT broker scheme ${url.protocol}`);
  return `${scheme}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}
