/**
 * Runs s3rver (an independent S3 server written for tests, from npm) under Deno on the address in the
 * arguments, storing in the directory given, and prints "listening http://host:port" once it accepts requests.
 * Run as a process of its own by tests/s3rver_process.ts: its Node-style server and logger stay out of the
 * test's process.
 */
import S3rver from "s3rver";

const [address, port, directory] = Deno.args;
const server = new S3rver({ address, port: Number(port), directory, silent: true });
const bound = await server.run() as { address: string; port: number };
console.log(`listening http://${bound.address}:${bound.port}`);
