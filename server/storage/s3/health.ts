/** MinIO's health endpoints for the embedded single-drive server. */

/** Health endpoints a single-drive server answers (minio-protocol-2 §11): anonymous, GET or HEAD, no body. */
const HEALTH: Record<string, Record<string, string>> = {
  "/minio/health/live": {},
  "/minio/health/ready": {},
  "/minio/health/cluster": { "x-minio-write-quorum": "1" },
  "/minio/health/cluster/read": { "x-minio-read-quorum": "1" },
};

/** The answer to a health check; null for any other request. The process answering is the check. */
export function healthCheck(request: Request, url: URL): Response | null {
  const headers = HEALTH[url.pathname];
  if (!headers || (request.method !== "GET" && request.method !== "HEAD")) return null;
  // MinIO's writeResponse sets its Server header on these too; clients (the console) tell MinIO by it.
  return new Response(null, { status: 200, headers: { ...headers, server: "MinIO" } });
}
