"""Signature Version 2 from boto3 (Config(signature_version="s3")): run by sigv2_boto3_test.ts, which reads
the JSON this prints. Endpoint and keys come from the environment."""
import json
import os
import sys
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint = os.environ["S3_ENDPOINT"]
config = Config(signature_version="s3", s3={"addressing_style": "path"}, retries={"max_attempts": 1})


def client(secret):
    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=os.environ["S3_ACCESS_KEY"],
                        aws_secret_access_key=secret, region_name="us-east-1", config=config)


s3 = client(os.environ["S3_SECRET_KEY"])
key = "dossier été/rapport 😀 +%#?.txt"
out = {}

# The Authorization header of each request, as boto3 sends it.
authorizations = []
s3.meta.events.register("before-send.s3", lambda request, **_: authorizations.append(request.headers.get("Authorization", b"").decode()))

s3.create_bucket(Bucket="sig-v2")
s3.put_object(Bucket="sig-v2", Key=key, Body=b"signed with version 2", ContentType="text/plain")
s3.put_object_tagging(Bucket="sig-v2", Key=key, Tagging={"TagSet": [{"Key": "équipe", "Value": "ops"}]})
out["tags"] = s3.get_object_tagging(Bucket="sig-v2", Key=key)["TagSet"]
out["range"] = s3.get_object(Bucket="sig-v2", Key=key, Range="bytes=0-5")["Body"].read().decode()
out["keys"] = [o["Key"] for o in s3.list_objects_v2(Bucket="sig-v2").get("Contents", [])]

upload = s3.create_multipart_upload(Bucket="sig-v2", Key="big file.bin")["UploadId"]
parts = []
for number, body in ((1, b"a" * (5 * 1024 * 1024)), (2, b"tail")):
    etag = s3.upload_part(Bucket="sig-v2", Key="big file.bin", UploadId=upload, PartNumber=number, Body=body)["ETag"]
    parts.append({"PartNumber": number, "ETag": etag})
s3.complete_multipart_upload(Bucket="sig-v2", Key="big file.bin", UploadId=upload, MultipartUpload={"Parts": parts})
out["multipartEtag"] = s3.head_object(Bucket="sig-v2", Key="big file.bin")["ETag"]
out["authorizations"] = authorizations

out["presignedGet"] = s3.generate_presigned_url("get_object", Params={"Bucket": "sig-v2", "Key": key}, ExpiresIn=300)
out["presignedPost"] = s3.generate_presigned_post("sig-v2", "posted/${filename}", Conditions=[["starts-with", "$key", "posted/"]], ExpiresIn=300)

wrong = client("not-the-secret")
try:
    wrong.list_objects_v2(Bucket="sig-v2")
    out["wrongSecret"] = None
except ClientError as error:
    out["wrongSecret"] = {"code": error.response["Error"]["Code"], "status": error.response["ResponseMetadata"]["HTTPStatusCode"]}

json.dump(out, sys.stdout)
