/**
 * Webhook target (minio-protocol-2 §1.3): one HTTP POST per event with the envelope as JSON. `auth_token`
 * of one word is sent as `Bearer <token>`, two words verbatim. Any 2xx is a delivery; Online means a TCP
 * connection to the endpoint's host and port opens within 5 s (§1.8).
 */
import { httpClientTrusting } from "../../lib/http/trusted_cas.ts";
import { canConnect, type Delivery, DeliveryError, type Target, type TargetConfig } from "./target.ts";

const SEND_TIMEOUT_MS = 10_000;

export function authorizationHeader(token: string | undefined): string | undefined {
  const words = (token ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  return words.length === 1 ? `Bearer ${words[0]}` : words.join(" ");
}

export class WebhookTarget implements Target {
  readonly type = "webhook" as const;
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  #client: Deno.HttpClient | undefined;

  /** `caCerts`: trusted besides the system's (the certificate directory's). */
  constructor(
    readonly id: string,
    private readonly config: TargetConfig,
    private readonly caCerts: string[] = [],
  ) {
    this.#url = new URL(config.endpoint);
    const auth = authorizationHeader(config.auth_token);
    this.#headers = {
      "content-type": "application/json",
      "user-agent": "MinIO (Deck embedded storage)",
      ...(auth ? { authorization: auth } : {}),
    };
  }

  async #httpClient(): Promise<Deno.HttpClient | undefined> {
    if (this.#client || (!this.config.client_cert && this.caCerts.length === 0)) return this.#client;
    const keyPair: Partial<Deno.TlsCertifiedKeyPem> = {};
    if (this.config.client_cert) {
      keyPair.cert = await Deno.readTextFile(this.config.client_cert);
      keyPair.key = await Deno.readTextFile(this.config.client_key);
    }
    this.#client = httpClientTrusting(this.caCerts, keyPair);
    return this.#client;
  }

  async send(batch: Delivery[]): Promise<void> {
    const client = await this.#httpClient();
    for (let i = 0; i < batch.length; i++) {
      let res: Response;
      try {
        res = await fetch(this.#url, {
          method: "POST",
          headers: this.#headers,
          body: batch[i].line,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          ...(client ? { client } : {}),
        });
        await res.body?.cancel();
      } catch (error) {
        throw new DeliveryError(
          `webhook ${this.#url.host} cannot be reached: ${error instanceof Error ? error.message : error}`,
          i,
        );
      }
      if (res.status === 403) {
        throw new DeliveryError(
          `webhook ${this.#url.host} answered 403: please check if your auth token is correctly set`,
          i,
        );
      }
      if (res.status < 200 || res.status > 299) {
        throw new DeliveryError(`webhook ${this.#url.host} answered ${res.status}`, i);
      }
    }
  }

  isActive(): Promise<boolean> {
    const port = Number(this.#url.port) || (this.#url.protocol === "https:" ? 443 : 80);
    return canConnect(this.#url.hostname.replace(/^\[|\]$/g, ""), port);
  }

  close(): Promise<void> {
    this.#client?.close();
    this.#client = undefined;
    return Promise.resolve();
  }
}
