// Uploads objects as one archive with minio-go's PutObjectsSnowball, then lists them back with ListObjects.
// Driven by tests/storage/minio_go_snowball_test.ts; arguments come from the environment so the keys never
// appear in a process listing.
//
// Input (stdin): {"bucket": "...", "prefix": "...", "compress": bool, "objects": {"key": "base64 bytes"}}
// Output (stdout): {"listed": [{"key": "...", "size": n}]}
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

type input struct {
	Bucket   string            `json:"bucket"`
	Prefix   string            `json:"prefix"`
	Compress bool              `json:"compress"`
	Objects  map[string]string `json:"objects"`
}

type listed struct {
	Key  string `json:"key"`
	Size int64  `json:"size"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("input: %v", err)
	}
	endpoint, err := url.Parse(os.Getenv("S3_ENDPOINT"))
	if err != nil {
		fail("endpoint: %v", err)
	}
	client, err := minio.New(endpoint.Host, &minio.Options{
		Creds:  credentials.NewStaticV4(os.Getenv("S3_ACCESS_KEY"), os.Getenv("S3_SECRET_KEY"), ""),
		Secure: endpoint.Scheme == "https",
		Region: "us-east-1",
	})
	if err != nil {
		fail("client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// minio-go 7.0.46 (Debian's) has no SnowballOptions.Prefix yet; the header it later sets for it is MinIO's
	// X-Amz-Meta-Minio-Snowball-Prefix, given here as user metadata (sent as it is, being an x-amz-meta- name).
	opts := minio.SnowballOptions{
		Opts:     minio.PutObjectOptions{UserMetadata: map[string]string{}},
		InMemory: true,
		Compress: in.Compress,
	}
	if in.Prefix != "" {
		opts.Opts.UserMetadata["X-Amz-Meta-Minio-Snowball-Prefix"] = in.Prefix
	}
	objects := make(chan minio.SnowballObject, len(in.Objects))
	for key, encoded := range in.Objects {
		body, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil {
			fail("object %q: %v", key, err)
		}
		objects <- minio.SnowballObject{
			Key:     key,
			Size:    int64(len(body)),
			ModTime: time.Now(),
			Content: bytes.NewReader(body),
		}
	}
	close(objects)
	if err := client.PutObjectsSnowball(ctx, in.Bucket, opts, objects); err != nil {
		fail("PutObjectsSnowball: %v", err)
	}

	out := struct {
		Listed []listed `json:"listed"`
	}{Listed: []listed{}}
	for object := range client.ListObjects(ctx, in.Bucket, minio.ListObjectsOptions{Recursive: true}) {
		if object.Err != nil {
			fail("ListObjects: %v", object.Err)
		}
		out.Listed = append(out.Listed, listed{Key: object.Key, Size: object.Size})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("output: %v", err)
	}
}
