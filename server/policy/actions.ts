/** IAM action names MinIO knows (minio-protocol §6.4) and its built-in canned policies (§6.5). */

export const S3_ACTIONS = [
  "s3:*", "s3:CreateBucket", "s3:DeleteBucket", "s3:ForceDeleteBucket", "s3:HeadBucket", "s3:ListAllMyBuckets", "s3:ListBucket",
  "s3:ListBucketVersions", "s3:ListBucketMultipartUploads", "s3:GetBucketLocation", "s3:GetBucketPolicy", "s3:PutBucketPolicy",
  "s3:DeleteBucketPolicy", "s3:GetBucketPolicyStatus", "s3:GetBucketNotification", "s3:PutBucketNotification", "s3:ListenNotification",
  "s3:ListenBucketNotification", "s3:GetLifecycleConfiguration", "s3:PutLifecycleConfiguration", "s3:GetEncryptionConfiguration",
  "s3:PutEncryptionConfiguration", "s3:GetBucketVersioning", "s3:PutBucketVersioning", "s3:GetBucketObjectLockConfiguration",
  "s3:PutBucketObjectLockConfiguration", "s3:GetBucketTagging", "s3:PutBucketTagging", "s3:GetReplicationConfiguration",
  "s3:PutReplicationConfiguration", "s3:ReplicateObject", "s3:ReplicateDelete", "s3:ReplicateTags", "s3:GetObjectVersionForReplication",
  "s3:ResetBucketReplicationState", "s3:GetObject", "s3:GetObjectVersion", "s3:GetObjectAttributes", "s3:GetObjectVersionAttributes",
  "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts",
  "s3:GetObjectTagging", "s3:PutObjectTagging", "s3:DeleteObjectTagging", "s3:GetObjectVersionTagging", "s3:PutObjectVersionTagging",
  "s3:DeleteObjectVersionTagging", "s3:GetObjectRetention", "s3:PutObjectRetention", "s3:GetObjectLegalHold", "s3:PutObjectLegalHold",
  "s3:BypassGovernanceRetention", "s3:RestoreObject", "s3:GetBucketCors", "s3:PutBucketCors", "s3:DeleteBucketCors",
] as const;

export const ADMIN_ACTIONS = [
  "admin:*", "admin:ServerInfo", "admin:StorageInfo", "admin:DataUsageInfo", "admin:Heal", "admin:ServerTrace", "admin:ConsoleLog",
  "admin:OBDInfo", "admin:Profiling", "admin:ServiceRestart", "admin:ServiceStop", "admin:ServiceFreeze", "admin:ConfigUpdate",
  "admin:CreateUser", "admin:DeleteUser", "admin:ListUsers", "admin:GetUser", "admin:EnableUser", "admin:DisableUser",
  "admin:AddUserToGroup", "admin:RemoveUserFromGroup", "admin:GetGroup", "admin:ListGroups", "admin:EnableGroup", "admin:DisableGroup",
  "admin:CreatePolicy", "admin:DeletePolicy", "admin:GetPolicy", "admin:AttachUserOrGroupPolicy", "admin:UpdatePolicyAssociation",
  "admin:ListUserPolicies", "admin:CreateServiceAccount", "admin:UpdateServiceAccount", "admin:RemoveServiceAccount",
  "admin:ListServiceAccounts", "admin:ListTemporaryAccounts", "admin:SetBucketQuota", "admin:GetBucketQuota", "admin:SetBucketTarget",
  "admin:GetBucketTarget", "admin:SetTier", "admin:ListTier", "admin:KMSCreateKey", "admin:KMSKeyStatus", "admin:ServerUpdate",
  "admin:TopLocksInfo", "admin:ForceUnlock", "admin:BandwidthMonitor", "admin:Prometheus", "admin:InspectData", "admin:ExportIAM",
  "admin:ImportIAM", "admin:Decommission", "admin:Rebalance", "admin:ExportBucketMetadata", "admin:ImportBucketMetadata",
  "admin:ReplicationDiff", "admin:SiteReplicationAdd", "admin:SiteReplicationDisable", "admin:SiteReplicationRemove",
  "admin:SiteReplicationResync", "admin:SiteReplicationInfo", "admin:SiteReplicationOperation", "admin:ListBatchJobs",
  "admin:DescribeBatchJob", "admin:StartBatchJob", "admin:CancelBatchJob",
] as const;

export const KMS_ACTIONS = [
  "kms:*", "kms:Status", "kms:Metrics", "kms:API", "kms:Version", "kms:CreateKey", "kms:ImportKey", "kms:DeleteKey", "kms:ListKeys",
  "kms:KeyStatus", "kms:SetPolicy", "kms:AssignPolicy", "kms:DeletePolicy", "kms:GetPolicy", "kms:DescribePolicy", "kms:ListPolicies",
  "kms:DescribeIdentity", "kms:DescribeSelfIdentity", "kms:ListIdentities", "kms:DeleteIdentity",
] as const;

export const ALL_ACTIONS: readonly string[] = [...S3_ACTIONS, ...ADMIN_ACTIONS, ...KMS_ACTIONS];

const ALL_ANY = "arn:aws:s3:::*";

/** MinIO's built-in canned policies, created on first start. */
export const CANNED_POLICIES: Record<string, { Version: string; Statement: Record<string, unknown>[] }> = {
  readonly: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetBucketLocation", "s3:GetObject"], Resource: [ALL_ANY] }] },
  readwrite: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:*"], Resource: [ALL_ANY] }] },
  writeonly: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:PutObject"], Resource: [ALL_ANY] }] },
  diagnostics: {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: ["admin:Profiling", "admin:ServerTrace", "admin:ConsoleLog", "admin:ServerInfo", "admin:TopLocksInfo", "admin:OBDInfo", "admin:BandwidthMonitor", "admin:Prometheus"],
      Resource: [ALL_ANY],
    }],
  },
  consoleAdmin: {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["admin:*"] },
      { Effect: "Allow", Action: ["kms:*"] },
      { Effect: "Allow", Action: ["s3:*"], Resource: [ALL_ANY] },
    ],
  },
};
