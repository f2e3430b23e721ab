/**
 * The Python side of `deno task conformance`: a virtualenv under .cache/ holding what s3-tests' functional
 * tests import, at versions this harness was run with (docs/conformance.md records the run). The suite's
 * requirements.txt also lists gevent, tox, lxml, httplib2 and PyYAML: only its old boto2 helpers and its tox
 * wrapper use them, and the harness calls pytest itself, so they are left out.
 */
import { ensureSystemPrograms } from "./system_deps.ts";

/** Pinned to the versions verified against the suite; boto3 comes from the package index, never Debian. */
const PINS = [
  "boto3==1.43.107",
  "botocore==1.43.107",
  "s3transfer==0.19.2",
  "jmespath==1.1.0",
  "python-dateutil==2.9.0.post0",
  "six==1.17.0",
  "urllib3==2.8.0",
  "requests==2.34.2",
  "certifi==2026.7.22",
  "charset-normalizer==3.5.2",
  "idna==3.20",
  "pytz==2026.4",
  "isodate==0.7.2",
  "pytest==9.1.1",
  "pluggy==1.6.0",
  "iniconfig==2.3.0",
  "packaging==26.3",
  "pygments==2.21.0",
  "pytest-timeout==2.4.0",
];
/** The suite's config holder. Debian ships it (python3-munch); elsewhere it comes from the index. */
const MUNCH = "munch==2.5.0";

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function run(command: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output()
    .catch((error) => ({
      success: false,
      stdout: new Uint8Array(),
      stderr: new TextEncoder().encode(`${error}`),
    }));
  const text = new TextDecoder();
  return { ok: out.success, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

/** Debian's munch: its package and metadata, which the venv is pointed at (`.pth`) instead of all of Debian's. */
const DEBIAN_MUNCH = [
  "/usr/lib/python3/dist-packages/munch",
  "/usr/lib/python3/dist-packages/munch-2.5.0.egg-info",
];

/**
 * On Debian, munch comes from apt (some package mirrors lack it). The venv does not see Debian's other packages:
 * botocore signs with awscrt whenever it can import it, and Debian's AWS CLI brings one, which would change
 * how every request of the suite is signed.
 */
async function choosePython(): Promise<{ python: string; pins: string[]; debianMunch: boolean }> {
  if (!(await exists("/usr/bin/apt-get"))) {
    return { python: "python3", pins: [...PINS, MUNCH], debianMunch: false };
  }
  const missing = await ensureSystemPrograms([
    { path: "/usr/bin/python3", debianPackage: "python3", purpose: "the s3-tests suite" },
    { path: `${DEBIAN_MUNCH[0]}/__init__.py`, debianPackage: "python3-munch", purpose: "the s3-tests suite" },
  ]);
  if (missing) throw new Error(missing);
  const minor = (await run("/usr/bin/python3", ["-c", "import sys; print(sys.version_info.minor)"])).output
    .trim();
  const venvMissing = await ensureSystemPrograms([{
    path: `/usr/lib/python3.${minor}/ensurepip/__init__.py`,
    debianPackage: "python3-venv",
    purpose: "the s3-tests virtualenv",
  }]);
  if (venvMissing) throw new Error(venvMissing);
  return { python: "/usr/bin/python3", pins: PINS, debianMunch: true };
}

/** Makes Debian's munch, and nothing else of Debian's, importable in the venv. */
async function linkDebianMunch(venvDir: string, venvPython: string): Promise<void> {
  const linkDir = `${venvDir}/debian-munch`;
  await Deno.mkdir(linkDir, { recursive: true });
  for (const path of DEBIAN_MUNCH) await Deno.symlink(path, `${linkDir}/${path.split("/").at(-1)}`);
  const site = await run(venvPython, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]);
  await Deno.writeTextFile(`${site.output.trim()}/deck-debian-munch.pth`, `${linkDir}\n`);
}

/**
 * Creates (or re-uses) the virtualenv at `venvDir` and returns its python. A stamp file holds the pins it was
 * made with, so a changed pin list rebuilds it and an unchanged one costs nothing.
 */
export async function ensurePythonEnv(venvDir: string): Promise<string> {
  const { python, pins, debianMunch } = await choosePython();
  const stampFile = `${venvDir}/deck-pins.txt`;
  const stamp = [python, ...pins, debianMunch ? "munch from Debian" : ""].join("\n");
  const venvPython = `${venvDir}/bin/python`;
  if ((await Deno.readTextFile(stampFile).catch(() => "")) === stamp && (await exists(venvPython))) {
    return venvPython;
  }
  console.log(`Creating the s3-tests virtualenv in ${venvDir} (once; pip may take a few minutes)...`);
  await Deno.remove(venvDir, { recursive: true }).catch(() => {});
  const venv = await run(python, ["-m", "venv", venvDir]);
  if (!venv.ok) throw new Error(`${python} -m venv failed:\n${venv.output}`);
  if (debianMunch) await linkDebianMunch(venvDir, venvPython);
  const pip = await run(venvPython, ["-m", "pip", "install", "--no-input", ...pins]);
  if (!pip.ok) throw new Error(`pip could not install the suite's packages:\n${pip.output}`);
  const check = await run(venvPython, ["-c", "import boto3, munch, pytest, pytest_timeout, isodate, pytz"]);
  if (!check.ok) throw new Error(`the virtualenv is incomplete:\n${check.output}`);
  await Deno.writeTextFile(stampFile, stamp);
  return venvPython;
}
