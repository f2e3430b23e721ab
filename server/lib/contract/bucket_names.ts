/** S3 bucket name rules (minio-protocol §1.1), shared by the embedded server, the console API and the Create Bucket dialog. */

/** What is wrong with a new bucket's name, as a kind the console words in the visitor's language. */
export type BucketNameIssue =
  | { kind: "length" | "characters" | "ipAddress" | "reserved" }
  | { kind: "awsReserved"; affix: string };

export function bucketNameIssue(name: string): BucketNameIssue | null {
  if (name.length < 3 || name.length > 63) return { kind: "length" };
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name)) return { kind: "characters" };
  if (name.includes("..") || name.includes(".-") || name.includes("-.")) return { kind: "characters" };
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return { kind: "ipAddress" };
  if (name === "minio") return { kind: "reserved" };
  const reserved = RESERVED_PREFIXES.find((p) => name.startsWith(p)) ??
    RESERVED_SUFFIXES.find((s) => name.endsWith(s));
  if (reserved) return { kind: "awsReserved", affix: reserved };
  return null;
}

/** The storage server's (S3 protocol) wording of a name's problem: always English. */
export function bucketNameProblem(name: string): string | null {
  const issue = bucketNameIssue(name);
  if (!issue) return null;
  switch (issue.kind) {
    case "length":
      return "Bucket name must be 3 to 63 characters long";
    case "characters":
      return "Bucket name contains invalid characters";
    case "ipAddress":
      return "Bucket name must not be formatted as an IP address";
    case "reserved":
      return "Bucket name minio is reserved";
    case "awsReserved":
      return `Bucket names with "${issue.affix}" are reserved by AWS`;
  }
}

/** Prefixes and suffixes AWS reserves for its own bucket kinds (access points, Object Lambda, directory buckets…). */
const RESERVED_PREFIXES = ["xn--", "sthree-", "amzn-s3-demo-"];
const RESERVED_SUFFIXES = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"];

/**
 * Whether a name can refer to an existing bucket (MinIO's relaxed check for every request but CreateBucket:
 * older servers allowed upper case, `_` and `:`). Null when it can. Anything with `/` never can, so a path
 * segment like `b%2Fkey` is refused here instead of addressing an object.
 */
export function bucketReferenceProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return "Bucket name must be 3 to 63 characters long";
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*[A-Za-z0-9]$/.test(name) || name.includes("..")) {
    return "Bucket name contains invalid characters";
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return "Bucket name must not be formatted as an IP address";
  return null;
}
