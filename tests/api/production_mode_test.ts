import assert from "node:assert/strict";

Deno.test("main.ts loads React's production build (the development build made pages several times slower)", async () => {
  const probe = `
    await import("./main.ts");
    const { jsx } = await import("react/jsx-runtime");
    console.log(JSON.stringify({ development: "_store" in jsx("div", {}), env: process.env.NODE_ENV }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", probe],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { NODE_ENV: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").pop() ?? "";
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(text), { development: false, env: "production" });
});
