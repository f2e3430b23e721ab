/**
 * Debian's AWS CLI (/usr/bin/aws, never another aws on PATH) against an embedded storage, signed in as root
 * from a private config home: `aws()` returns stdout or throws with stderr, `json()` parses it, `run()`
 * returns the outcome either way.
 */

export const AWS = "/usr/bin/aws";

export interface AwsCli {
  home: string;
  run(...args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }>;
  aws(...args: string[]): Promise<string>;
  json(...args: string[]): Promise<ReturnType<typeof JSON.parse>>;
  /** Removes the config home. */
  close(): Promise<void>;
}

/**
 * The CLI for `f`'s server; `s3Config` adds lines to the config's `s3 =` section (multipart sizes…), and
 * `caBundle` is the CA file it trusts for a server on HTTPS (--ca-bundle).
 */
export async function awsCli(
  f: { storage: { url: string; root: { accessKey: string; secretKey: string } } },
  s3Config: string[] = [],
  caBundle?: string,
): Promise<AwsCli> {
  if (!(await Deno.stat(AWS).then(() => true, () => false))) {
    throw new Error(
      `${AWS} is missing: install Debian's awscli package (deno task test does it on Debian as root)`,
    );
  }
  const home = await Deno.makeTempDir({ prefix: "deck-aws-" });
  const s3Lines = ["addressing_style = path", ...s3Config].map((line) => `    ${line}\n`).join("");
  await Deno.writeTextFile(`${home}/config`, `[default]\nregion = us-east-1\ns3 =\n${s3Lines}`);
  await Deno.writeTextFile(
    `${home}/credentials`,
    `[default]\naws_access_key_id = ${f.storage.root.accessKey}\naws_secret_access_key = ${f.storage.root.secretKey}\n`,
  );
  const env = {
    AWS_CONFIG_FILE: `${home}/config`,
    AWS_SHARED_CREDENTIALS_FILE: `${home}/credentials`,
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_PAGER: "",
    HOME: home,
    PATH: "/usr/bin:/bin",
  };
  const run = async (...args: string[]) => {
    const out = await new Deno.Command(AWS, {
      args: [
        "--endpoint-url",
        f.storage.url,
        "--output",
        "json",
        ...(caBundle ? ["--ca-bundle", caBundle] : []),
        ...args,
      ],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      ok: out.success,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  };
  const aws = async (...args: string[]) => {
    const result = await run(...args);
    if (!result.ok) throw new Error(`aws ${args.join(" ")} failed: ${result.stderr}`);
    return result.stdout;
  };
  return {
    home,
    run,
    aws,
    json: async (...args) => JSON.parse((await aws(...args)) || "{}"),
    close: () => Deno.remove(home, { recursive: true }).catch(() => {}),
  };
}
