/**
 * Deck as production starts it: `deno run -A main.ts` as a process of its own, with the embedded storage on its
 * own thread. Tests that must see the real program (its start-up, its exit status, what it survives) use this.
 */
import { fetchTrusting } from "../server/lib/http/trusted_cas.ts";
import { eventually, within } from "./eventually.ts";

export const DECK_ROOT = { accessKey: "processadmin", secretKey: "process-secret-123456" };

export interface Deck {
  child: Deno.ChildProcess;
  consoleUrl: string;
  storageUrl: string;
  /** What the process printed so far (of stderr, the last `tail` characters: 4,000 unless asked). */
  output: (tail?: number) => string;
  /** Exit status, once the process ended. */
  status: Promise<Deno.CommandStatus>;
  /** fetch for the console: it trusts the CA files spawnDeck was given (a console on HTTPS). */
  fetch: typeof fetch;
}

/** Collects a stream's text as it comes (so a full pipe never stalls the process). */
function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return { text: () => text, done: done.catch(() => {}) };
}

/**
 * Starts main.ts on these ports and data directory, with the root credentials above; `env` adds or overrides
 * settings (an entry set to undefined is left out, so the default applies). `trust` names CA files the test's
 * own calls trust, for a console on HTTPS.
 */
export function spawnDeck(
  dataDir: string,
  ports: { console: number; storage: number },
  env: Record<string, string | undefined> = {},
  options: { trust?: string[] } = {},
): Deck {
  // The test's own environment minus Deck's settings, so whatever is not set here takes its default.
  const inherited = Object.entries(Deno.env.toObject()).filter(([name]) => !/^(CONSOLE|MINIO)_/.test(name));
  const settings: Record<string, string | undefined> = {
    ...Object.fromEntries(inherited),
    CONSOLE_HOSTNAME: "127.0.0.1",
    CONSOLE_PORT: String(ports.console),
    CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${ports.storage}`,
    CONSOLE_DATA_DIR: dataDir,
    MINIO_ROOT_USER: DECK_ROOT.accessKey,
    MINIO_ROOT_PASSWORD: DECK_ROOT.secretKey,
    NO_COLOR: "1",
    ...env,
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname],
    env: Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const status = Promise.all([child.status, stdout.done, stderr.done]).then(([s]) => s);
  // Deck's own TLS and the storage's certificate directory make each listener HTTPS.
  const consoleScheme = settings.CONSOLE_TLS_CERT || settings.CONSOLE_CERTS_DIR ? "https" : "http";
  const storageScheme = settings.CONSOLE_STORAGE_CERTS_DIR ? "https" : "http";
  return {
    child,
    consoleUrl: `${consoleScheme}://127.0.0.1:${ports.console}`,
    storageUrl: `${storageScheme}://${settings.CONSOLE_STORAGE_ADDRESS ?? `127.0.0.1:${ports.storage}`}`,
    fetch: fetchTrusting((options.trust ?? []).map((file) => Deno.readTextFileSync(file))),
    output: (tail = 4000) => `stdout:\n${stdout.text()}\nstderr:\n${stderr.text().slice(-tail)}`,
    status,
  };
}

/** Waits until the console answers /healthz and has printed its addresses (or the process ended: fails). */
export async function ready(deck: Deck): Promise<void> {
  const exited = new AbortController();
  deck.status.then(() => exited.abort(new Error(`Deck exited before serving:\n${deck.output()}`)));
  try {
    // The console may answer a moment before the start is over (the storage's audit target is written
    // meanwhile): started is when it also says where everything is.
    await eventually("the console to answer /healthz and say where it is", async () => {
      const res = await deck.fetch(`${deck.consoleUrl}/healthz`);
      await res.body?.cancel();
      return res.ok && deck.output().includes("Deck console: ");
    }, { timeoutMs: 90_000, signal: exited.signal });
  } catch (error) {
    if (error === exited.signal.reason) throw error;
    throw new Error(`${error instanceof Error ? error.message : error}\n${deck.output()}`);
  }
}

/** The exit status once the process ends by itself, or null when it is still running after 90 s. */
export async function exitOf(deck: Deck): Promise<Deno.CommandStatus | null> {
  return await within("Deck to exit", deck.status, 90_000).catch(() => null);
}

export async function stop(deck: Deck): Promise<Deno.CommandStatus> {
  try {
    deck.child.kill("SIGTERM");
  } catch { /* already gone */ }
  return await deck.status;
}
