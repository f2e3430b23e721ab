/**
 * The front's admin API v3 and STS requests: the checks the front makes before the identity side
 * (identity.ts) answers them, and the shape their errors take (JSON for the admin API, STS's XML).
 */
import { sha256Hex } from "../lib/s3/sigv4.ts";
import { adminTooLarge, MAX_ADMIN_BODY, MAX_STS_BODY, readAll, stsTooLarge } from "./core/bounded_body.ts";
import type { Credential } from "./core/contracts.ts";
import { accessDenied, adminErrorResponse, StoreError, stsErrorResponse } from "./core/errors.ts";
import { type Front, type FrontRequest, noteSigner } from "./front.ts";
import { adminApiName } from "./streams/api_names.ts";

/** `/minio/admin/v3/*`: signed with SigV4 in a header, its body bounded, then the identity side's. */
export async function adminRequest(front: Front, at: FrontRequest): Promise<Response> {
  const { request, url, sourceIp, requestId, facts } = at;
  facts.kind = "admin";
  facts.api = adminApiName(request.method, url.pathname.slice("/minio/admin/v3/".length));
  try {
    if (
      !request.headers.has("x-amz-content-sha256") ||
      !(request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")
    ) {
      throw accessDenied();
    }
    const length = Number(request.headers.get("content-length") ?? "0");
    if (length > MAX_ADMIN_BODY) throw adminTooLarge();
    const auth = await front.verify(request, url, sourceIp, { service: "s3", now: front.clock() });
    noteSigner(facts, auth.credential);
    front.sendContinue(request);
    const body = await readAll(auth.body, null, MAX_ADMIN_BODY, adminTooLarge);
    return await front.options.admin({
      request,
      url,
      credential: auth.credential,
      body,
      sourceIp,
      requestId,
    });
  } catch (error) {
    if (error instanceof StoreError) {
      facts.errorCode = error.code;
      return adminErrorResponse(error, url, requestId);
    }
    throw error;
  }
}

/** An STS POST: its body read (the signature covers it), AssumeRole's signature checked, then answered. */
export async function stsRequest(front: Front, at: FrontRequest): Promise<Response> {
  const { request, url, sourceIp, requestId, facts } = at;
  facts.kind = "sts";
  facts.api = url.searchParams.get("Action") ?? "";
  try {
    let credential: Credential | null = null;
    front.sendContinue(request); // the signature covers the body: it must be read to be checked
    const body = await readAll(
      request.body,
      request.headers.get("content-length"),
      MAX_STS_BODY,
      stsTooLarge,
    );
    if ((request.headers.get("authorization") ?? "").startsWith("AWS4-HMAC-SHA256")) {
      const bodyHash = await sha256Hex(body);
      credential = (await front.verify(request, url, sourceIp, {
        service: "sts",
        now: front.clock(),
        bodyHash,
        region: front.options.facts.region(),
      })).credential;
      noteSigner(facts, credential);
    }
    if (!facts.api) facts.api = new URLSearchParams(new TextDecoder().decode(body)).get("Action") ?? "STS";
    return await front.options.sts({ request, url, credential, body, sourceIp, requestId });
  } catch (error) {
    if (error instanceof StoreError) {
      // Too large, too fast and a wrong region keep their answers (the last names the region to sign for);
      // every other failure is STS's AccessDenied (§2.5).
      const own = error.status === 413 || error.status === 503 ||
        error.code === "AuthorizationHeaderMalformed";
      facts.errorCode = own ? error.code : "AccessDenied";
      await request.body?.cancel().catch(() => {});
      const answered = own ? error : new StoreError("AccessDenied", error.message, 403, error.headers);
      return stsErrorResponse(answered, requestId);
    }
    throw error;
  }
}
