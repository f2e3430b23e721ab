/** S3 bucket name rules (minio-protocol §1.1), shared by the embedded server, the console API and the Create Bucket dialog. */

export function bucketNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 63) return "Bucket name must be 3 to 63 characters long";
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name)) return "Bucket name contains invalid characters";
  if (name.includes("..") || name.includes(".-") || name.includes("-.")) return "Bucket name contains invalid characters";
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return "Bucket name must not be formatted as an IP address";
  if (name === "minio") return "Bucket name minio is reserved";
  return null;
}
