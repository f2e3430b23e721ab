/** What authentication tells the rest of a request (verify.ts and sigv2.ts produce it). */
import type { Credential } from "../core/contracts.ts";
import type { Trailer } from "./body.ts";

export type AuthType = "header" | "presigned" | "streaming" | "anonymous";

/** Who signed a request, how, and its body as the signature requires it to be read. */
export interface Authenticated {
  credential: Credential | null;
  authType: AuthType;
  /** The body to read: decoded and verified as the signature requires. */
  body: ReadableStream<Uint8Array> | null;
  /** Length of the decoded body when known. */
  contentLength?: number;
  /** Seconds since the request was signed (for the s3:signatureAge condition). */
  signatureAgeSeconds?: number;
  /** The body's trailer (aws-chunked -TRAILER modes); its values are there once the body was read. */
  trailer?: Trailer;
  /** "AWS" for Signature Version 2 (sigv2.ts); V4 otherwise (the s3:signatureversion condition). */
  signatureVersion?: "AWS";
}
