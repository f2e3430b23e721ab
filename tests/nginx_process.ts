/**
 * Debian's nginx in front of Deck, configured as the README tells administrators to: TLS ends at nginx, the
 * console is under a path prefix, WebSockets are passed on, and X-Forwarded-* name the browser's host, scheme
 * and address. `style` picks how the prefix reaches Deck: "keep" (`proxy_pass http://deck;`) or "strip"
 * (`proxy_pass http://deck/;`, as MinIO's documentation writes it). It runs as a process of the test's own,
 * in the foreground, with every file in a temporary prefix; nginx is installed with apt-get when missing.
 */
import { ensureSystemPrograms, NGINX } from "../build/system_deps.ts";
import { freePort } from "./storage_process.ts";

export interface NginxOptions {
  /** Where Deck listens, e.g. http://127.0.0.1:9090. */
  upstream: string;
  /** The console's prefix as browsers see it, with both slashes: /console/. */
  location: string;
  style: "keep" | "strip";
  tls: { cert: string; key: string };
}

export interface NginxProcess {
  /** https://localhost:<port> */
  origin: string;
  stop(): Promise<void>;
}

/** The `map` the Connection header needs (http level): "upgrade" for WebSockets, "close" otherwise. */
export const NGINX_UPGRADE_MAP = `map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      close;
}`;

/** The server block the README shows, for one style; `listen` is nginx's listen parameter. */
export function nginxServerBlock(options: NginxOptions, listen: string): string {
  const target = options.style === "strip" ? `${options.upstream}/` : options.upstream;
  return `server {
    listen ${listen} ssl;
    ssl_certificate     ${options.tls.cert};
    ssl_certificate_key ${options.tls.key};
    client_max_body_size 0;  # uploads stream through; Deck sets its own limits

    location ${options.location} {
        proxy_pass ${target};
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_buffering off;
        proxy_request_buffering off;
    }
}`;
}

/** Starts nginx on a free loopback port; resolves once it answers. */
export async function startNginx(options: NginxOptions): Promise<NginxProcess> {
  const missing = await ensureSystemPrograms([NGINX]);
  if (missing) throw new Error(missing);
  const prefix = await Deno.makeTempDir({ prefix: "deck-nginx-" });
  // Run as root, nginx's workers become "nobody": they must reach the prefix and its temporary files.
  await Deno.chmod(prefix, 0o755);
  const port = await freePort();
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const dir of temp) {
    await Deno.mkdir(`${prefix}/${dir}`, { mode: 0o777 }).then(() => Deno.chmod(`${prefix}/${dir}`, 0o777));
  }
  const conf = [
    "worker_processes 1;",
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    "events { worker_connections 256; }",
    "http {",
    "access_log off;",
    ...temp.map((dir) => `${dir}_temp_path ${prefix}/${dir};`),
    NGINX_UPGRADE_MAP,
    nginxServerBlock(options, `127.0.0.1:${port}`),
    "}",
  ].join("\n");
  await Deno.writeTextFile(`${prefix}/nginx.conf`, conf);
  const child = new Deno.Command(NGINX.path, {
    args: ["-p", prefix, "-c", `${prefix}/nginx.conf`, "-e", `${prefix}/error.log`, "-g", "daemon off;"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const origin = `https://localhost:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await stderr;
    await Deno.remove(prefix, { recursive: true }).catch(() => {});
  };
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 30_000;
  while (true) {
    if (exited) {
      const log = await Deno.readTextFile(`${prefix}/error.log`).catch(() => "");
      await stop();
      throw new Error(`nginx exited: ${await stderr}\n${log}`);
    }
    const up = await Deno.connect({ hostname: "127.0.0.1", port }).then(
      (conn) => (conn.close(), true),
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error("nginx did not listen within 30 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, stop };
}
