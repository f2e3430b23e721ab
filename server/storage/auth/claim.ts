/**
 * Who a request says it is, read once before anything is verified: the SigV4 Authorization header parsed
 * strictly, or the presigned query's credential, or nobody. The guess throttle keys on this claim and the
 * signature check verifies the same one, so no way of writing the header can show the throttle one access
 * key and the check another (a space before `=`, a second Credential field once did).
 *
 * The header's grammar (AWS SigV4; minio-protocol §1.10 for MinIO's reading of it, `parseSignV4`):
 *   AWS4-HMAC-SHA256 Credential=<access key>/<date>/<region>/<service>/aws4_request, SignedHeaders=<a;b>, Signature=<hex>
 * exactly three components in that order, spaces allowed only around the commas; anything else is refused
 * with MinIO's error for it.
 */
import { ALGORITHM } from "../../lib/s3/sigv4.ts";
import { parseCredential, type Scope } from "./scope.ts";
import { StoreError } from "../core/errors.ts";

/** The three components of a SigV4 Authorization header. */
export interface SignedHeader {
  credential: Scope;
  signedHeaders: string[];
  signature: string;
}

export type Claim =
  | { kind: "header"; accessKey: string; header: SignedHeader }
  | { kind: "presigned"; accessKey: string }
  | { kind: "v2"; accessKey: string }
  | { kind: "anonymous"; accessKey: "" };

const refused = (code: string, message: string) => new StoreError(code, message, 400);
const missingFields = () => refused("MissingFields", "Missing fields in request.");

/** The components' names in order, with MinIO's answer when one is not where it belongs. */
const COMPONENTS: [string, () => StoreError][] = [
  ["Credential", () => refused("InvalidRequest", "Missing Credential field for this request.")],
  ["SignedHeaders", () => refused("InvalidArgument", "Signature header missing SignedHeaders field.")],
  ["Signature", () => new StoreError("AccessDenied", "Signature header missing Signature field.", 400)],
];

/** Parses a header that starts with AWS4-HMAC-SHA256; throws StoreError (400) when it is malformed. */
export function parseAuthorization(value: string): SignedHeader {
  const rest = value.slice(ALGORITHM.length);
  if (!/^ +\S/.test(rest)) {
    throw refused(
      "InvalidRequest",
      "The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.",
    );
  }
  const parts = rest.split(",").map((part) => part.replace(/^[ \t]+|[ \t]+$/g, ""));
  if (parts.length !== COMPONENTS.length) throw missingFields();
  const values = parts.map((part, i) => {
    const [name, wrongPlace] = COMPONENTS[i];
    const eq = part.indexOf("=");
    if (eq < 0) throw missingFields();
    if (part.slice(0, eq) !== name) throw wrongPlace();
    const text = part.slice(eq + 1);
    // Only the credential may hold "=" or a space (inside an access key); the others are single tokens.
    if (text === "" || (name !== "Credential" && /[=\s]/.test(text))) throw missingFields();
    return text;
  });
  return {
    credential: parseCredential(values[0]),
    signedHeaders: values[1].toLowerCase().split(";"),
    signature: values[2],
  };
}

/** Reads the claim of a request (the order MinIO classifies requests in); throws StoreError when refused. */
export function claimOf(request: Request, url: URL): Claim {
  const authorization = request.headers.get("authorization") ?? "";
  // Signature Version 2, as a header ("AWS key:signature") or a presigned URL (AWSAccessKeyId=…): its own
  // module checks the rest (sigv2.ts); MinIO looks for it first.
  if (authorization.startsWith("AWS ")) {
    return { kind: "v2", accessKey: /^AWS ([^:\s]+):/.exec(authorization)?.[1] ?? "" };
  }
  if (!authorization && url.searchParams.has("AWSAccessKeyId")) {
    return { kind: "v2", accessKey: url.searchParams.get("AWSAccessKeyId") ?? "" };
  }
  if (authorization.startsWith(ALGORITHM)) {
    const header = parseAuthorization(authorization);
    return { kind: "header", accessKey: header.credential.accessKey, header };
  }
  const credential = url.searchParams.get("X-Amz-Credential");
  if (credential !== null) {
    // A credential that does not parse is refused by the presigned check itself, before any signature.
    let accessKey = "";
    try {
      accessKey = parseCredential(credential).accessKey;
    } catch { /* refused below, with the query's own error */ }
    return { kind: "presigned", accessKey };
  }
  if (authorization) throw new StoreError("AccessDenied", "Unsupported Authorization type", 400);
  return { kind: "anonymous", accessKey: "" };
}
