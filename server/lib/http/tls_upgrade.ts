/**
 * WebSocket upgrades on a TLS listener. Deno.upgradeWebSocket takes a node:http connection over by taking the
 * TCP stream from under its socket, and a TLS socket has none to give ("Socket is not a TCP socket - only TCP
 * connections can be upgraded to WebSocket"): every live tool answered 502 on Deck's own HTTPS.
 *
 * So a TLS listener keeps a loopback TCP port of its own, and each upgrade gets a fresh connection to it: the
 * handler upgrades the near end (a plain TCP socket, as on a plain listener), and the far end is piped to the
 * TLS socket. The WebSocket itself (framing, pings, limits) stays Deno's, the same on both listeners; only the
 * bytes take one more hop through the kernel on their way to the TLS socket.
 *
 * The port answers only connections this process opened: a connection whose source port no upgrade is waiting
 * for is closed unread after CLAIM_MS, so another local user reaching the port gets nothing from it.
 */
import net from "node:net";
import type { Socket } from "node:net";

/** How long an accepted loopback connection may wait for the upgrade that opened it. */
const CLAIM_MS = 2000;

export class LoopbackBridge {
  /** Far ends accepted before their near end said it connected, by source port. */
  readonly #accepted = new Map<number, Socket>();
  /** Near ends connected before their far end was accepted, by source port. */
  readonly #waiting = new Map<number, (far: Socket) => void>();

  private constructor(
    private readonly server: net.Server,
    /** The loopback port (tests reach it as another local user would). */
    readonly port: number,
  ) {
    server.on("connection", (far: Socket) => this.#onAccepted(far));
    server.on("error", (error) => console.error(`http: loopback bridge error: ${error.message}`));
  }

  /** Listens on a free loopback port. */
  static async open(): Promise<LoopbackBridge> {
    const server = net.createServer({ noDelay: true });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new LoopbackBridge(server, (server.address() as net.AddressInfo).port);
  }

  /**
   * A plain TCP socket for Deno.upgradeWebSocket whose bytes reach `outer` (the TLS socket) and back. Each
   * end's close closes the other, so the WebSocket ending ends the TLS connection and the reverse.
   * `release()` undoes it for an upgrade the handler refused: the loopback connection closes and `outer`
   * stays open for the refusal.
   */
  splice(outer: Socket): { socket: Socket; release(): void } {
    let released = false;
    const near = net.connect({ host: "127.0.0.1", port: this.port, noDelay: true });
    let far: Socket | null = null;
    const endOuter = () => {
      if (!released) outer.destroy();
    };
    near.on("error", () => near.destroy());
    near.once("close", endOuter);
    outer.once("close", () => near.destroy());
    // The WebSocket is quiet as long as its users are; Deno's own pings keep it alive and find dead peers.
    outer.setTimeout(0);
    near.once("connect", () => {
      this.#pair(near.localPort!, (accepted) => {
        if (released || outer.destroyed || near.destroyed) return accepted.destroy();
        far = accepted;
        far.on("error", () => accepted.destroy());
        far.once("close", endOuter);
        outer.once("close", () => accepted.destroy());
        far.pipe(outer);
        outer.pipe(far);
      });
    });
    return {
      socket: near,
      release: () => {
        released = true;
        if (far) {
          far.unpipe(outer);
          outer.unpipe(far);
          far.destroy();
        }
        near.destroy();
      },
    };
  }

  #pair(port: number, onFar: (far: Socket) => void): void {
    const far = this.#accepted.get(port);
    if (!far) return void this.#waiting.set(port, onFar);
    this.#accepted.delete(port);
    onFar(far);
  }

  #onAccepted(far: Socket): void {
    const port = far.remotePort;
    if (far.remoteAddress !== "127.0.0.1" || port === undefined) return void far.destroy();
    const waiting = this.#waiting.get(port);
    if (waiting) {
      this.#waiting.delete(port);
      return waiting(far);
    }
    this.#accepted.set(port, far);
    far.on("error", () => far.destroy());
    const timer = setTimeout(() => {
      if (this.#accepted.get(port) !== far) return;
      this.#accepted.delete(port);
      far.destroy();
    }, CLAIM_MS);
    far.once("close", () => {
      clearTimeout(timer);
      if (this.#accepted.get(port) === far) this.#accepted.delete(port);
    });
  }

  /** Stops listening; connections already spliced end with their TLS sockets. */
  close(): void {
    this.server.close();
    for (const far of this.#accepted.values()) far.destroy();
    this.#accepted.clear();
    this.#waiting.clear();
  }
}
