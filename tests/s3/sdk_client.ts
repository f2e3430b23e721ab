/**
 * The embedded storage with an AWS SDK v3 client signed in as root, as an application would configure it
 * against MinIO (path-style addressing, us-east-1, otherwise the SDK's defaults). close() ends both.
 */
import assert from "node:assert/strict";
import { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { startStorage, type StorageFixture } from "./fixture.ts";

export interface SdkStorageFixture extends StorageFixture {
  sdk: S3Client;
}

export async function startSdkStorage(
  options: Parameters<typeof startStorage>[0] = {},
): Promise<SdkStorageFixture> {
  const f = await startStorage(options);
  const sdk = new S3Client({
    endpoint: f.storage.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: f.storage.root.accessKey, secretAccessKey: f.storage.root.secretKey },
  });
  return {
    ...f,
    sdk,
    close: async () => {
      sdk.destroy();
      await f.close();
    },
  };
}

/** Rejects with an S3 service error of this code (and HTTP status, if given); returns the error. */
export async function failsWith(
  promise: Promise<unknown>,
  code: string,
  status?: number,
): Promise<S3ServiceException> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof S3ServiceException, `expected ${code}, got ${error}`);
    assert.equal(error.name, code, error.message);
    if (status) assert.equal(error.$metadata.httpStatusCode, status);
    return error;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}
