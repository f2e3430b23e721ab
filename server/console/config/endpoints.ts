/**
 * Where the console reaches the programs it works with, always over the wire: the storage server and the
 * audit log search, each external or started beside it (server/start/). Known once they are started or found.
 */

/** Where the storage server (external MinIO or the embedded one) is reached, always over HTTP. */
export interface StorageEndpoint {
  /** Origin such as http://127.0.0.1:9000 (no trailing slash). */
  url: string;
  /** Region used to sign STS requests ("" for MinIO's default). */
  region: string;
  /**
   * Key to vouch for the client address of a sign-in (server/lib/s3/forwarded_client.ts); known when the console
   * started the storage. Without it the storage sees every sign-in as coming from the console.
   */
  forwardingKey?: string;
}

/** The audit log search the console queries (Log Search API, minio-protocol-2 §3.4). */
export interface LogSearchEndpoint {
  /** Origin of the service: an external one, or the built-in listener. */
  url: string;
  /** The query token. */
  token: string;
  /** How to reach it: the built-in service answers in-process through its own fetch handler. */
  fetch: typeof fetch;
}
