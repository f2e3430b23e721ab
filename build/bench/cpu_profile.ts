/**
 * A CPU profile of a Deck process's main thread, taken over the V8 inspector while a benchmark runs (the
 * load benchmark's DECK_LOAD_PROFILE): where a page kind's console-thread time goes, by function and by
 * module, without a profiler of its own in the product.
 */

const CHECKOUT = new URL("../../", import.meta.url).href;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The main thread's inspector session of a process started with `--inspect=127.0.0.1:<port>`. */
export async function connectInspector(port: number): Promise<Inspector> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  return new Inspector(socket);
}

export class Inspector {
  #nextId = 1;
  #waiting = new Map<number, (result: unknown) => void>();
  constructor(private readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      this.#waiting.get(message.id)?.(message.result);
      this.#waiting.delete(message.id);
    };
  }
  call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.#waiting.set(id, resolve as (result: unknown) => void));
  }
  async start(): Promise<void> {
    await this.call("Profiler.enable");
    await this.call("Profiler.setSamplingInterval", { interval: 200 });
    await this.call("Profiler.start");
  }
  async stop(): Promise<CpuProfile> {
    return (await this.call<{ profile: CpuProfile }>("Profiler.stop")).profile;
  }
  close(): void {
    this.socket.close();
  }
}

/** Milliseconds of self time per function and per module (a path's package or file), largest first. */
export function summarize(profile: CpuProfile, top = 25): string {
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    // Paths from the checkout's root; a package's files group under its name and version.
    const where = (url.startsWith(CHECKOUT) ? url.slice(CHECKOUT.length) : url).replace(
      /^node_modules\/\.deno\//,
      "",
    );
    const module = where.replace(/^([^/]+)\/node_modules\/.*$/, "$1") || functionName;
    const name = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byModule.set(module, (byModule.get(module) ?? 0) + ms);
    if (functionName !== "(idle)") total += ms;
  }
  const table = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) =>
      `${ms.toFixed(0).padStart(7)} ms ${(100 * ms / total).toFixed(1).padStart(5)} %  ${name}`
    ).join("\n");
  return `busy ${total.toFixed(0)} ms\n\nby module:\n${table(byModule)}\n\nby function:\n${
    table(byFunction)
  }\n`;
}
