"""A PUT whose body is longer than its Content-Length, from boto3 signed with V4 and with V2: run by
body_overrun_test.ts, which reads the JSON this prints. Endpoint and keys come from the environment."""
import json
import os

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint = os.environ["S3_ENDPOINT"]
out = {}
for signature in ("s3v4", "s3"):
    s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=os.environ["S3_ACCESS_KEY"],
                      aws_secret_access_key=os.environ["S3_SECRET_KEY"], region_name="us-east-1",
                      config=Config(signature_version=signature, s3={"addressing_style": "path"},
                                    retries={"max_attempts": 1}))
    bucket = f"overrun-{signature}"
    key = "short été +#?.txt"
    s3.create_bucket(Bucket=bucket)
    # One byte fewer announced than sent: the storage reads two of "bar", and the byte left over is no request.
    short = lambda **kw: kw["params"]["headers"].update({"Content-Length": "2"})
    s3.meta.events.register("before-call.s3.PutObject", short)
    try:
        s3.put_object(Bucket=bucket, Key=key, Body="bar")
        out[signature] = {"code": None}
    except ClientError as e:
        out[signature] = {"code": e.response["Error"]["Code"], "status": e.response["ResponseMetadata"]["HTTPStatusCode"]}
    s3.meta.events.unregister("before-call.s3.PutObject", short)
    try:
        s3.head_object(Bucket=bucket, Key=key)
        out[signature]["stored"] = True
    except ClientError:
        out[signature]["stored"] = False
    s3.put_object(Bucket=bucket, Key=key, Body="bar")
    out[signature]["after"] = s3.get_object(Bucket=bucket, Key=key)["Body"].read().decode()
print(json.dumps(out))
