/**
 * Reading MinIO's streamed answers (trace, console log, health info, heal start, ListenBucketNotification;
 * minio-protocol §3.13-3.16, §5.20): JSON values separated by newlines, with whitespace keep-alives between
 * them. Yields each value as it arrives; stops (cancelling the body) when the signal aborts or the consumer
 * returns early.
 */

/**
 * Responses whose bodies are being read here. A body read on after its Response object was no longer
 * referenced anywhere was not ended by the request's abort signal: the read waited for ever (seen when the
 * stream was opened by one function and read by another, tests/s3/redaction_test.ts). Holding the response
 * until the stream ends keeps the signal working.
 */
const reading = new Set<Response>();

/** Parses the body's JSON values one by one; a value that does not parse ends the stream with an error. */
export async function* jsonValues<T = unknown>(response: Response): AsyncGenerator<T> {
  const body = response.body;
  if (!body) return;
  reading.add(response);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line) yield JSON.parse(line) as T;
      }
      // Keep-alive spaces alone on a "line" need not wait for a newline that never comes.
      if (pending.trim() === "") pending = "";
    }
    if (pending.trim()) yield JSON.parse(pending.trim()) as T;
  } finally {
    reading.delete(response);
    await reader.cancel().catch(() => {});
  }
}
