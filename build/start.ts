/**
 * `deno task start`: build the assets if any input changed since the last build, then start the console
 * exactly as the compiled binary would (same main(), same embedded assets).
 */
import { build } from "./build.ts";

await build({ ifStale: true });
const { main } = await import("../main.ts");
await main(Deno.args);
