/**
 * boto3 for tests that drive the storage from Python: the machine's python3 with boto3 if it has it,
 * otherwise boto3 installed from PyPI into a cache folder of its own (once), found through PYTHONPATH.
 */
const CACHE = `${Deno.env.get("HOME") ?? "/tmp"}/.cache/deck-tests/python-boto3`;

async function python(args: string[], env: Record<string, string> = {}) {
  return await new Deno.Command("python3", { args, env, stdout: "piped", stderr: "piped" }).output();
}

/** The environment under which `python3` imports boto3. */
export async function boto3Env(): Promise<Record<string, string>> {
  const env = { PYTHONPATH: CACHE, PYTHONIOENCODING: "utf-8" };
  if ((await python(["-c", "import boto3"], env)).success) return env;
  const install = await python([
    "-m",
    "pip",
    "install",
    "--quiet",
    "--disable-pip-version-check",
    "--target",
    CACHE,
    "boto3",
  ]);
  if (!install.success) {
    throw new Error(`pip could not install boto3: ${new TextDecoder().decode(install.stderr)}`);
  }
  return env;
}

/** Runs a Python script with boto3 and `env`; returns what it printed as JSON. */
export async function runBoto3Script(
  script: string,
  env: Record<string, string>,
): Promise<ReturnType<typeof JSON.parse>> {
  const out = await python([script], { ...(await boto3Env()), ...env });
  if (!out.success) throw new Error(`${script} failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
