/** Policies the IAM API tests attach. */

/** Read access to the objects of the bucket "reports" (attached as "read-reports"). */
export const READ_POLICY = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::reports/*"] }],
});
