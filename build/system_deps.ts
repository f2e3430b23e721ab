/**
 * System programs the test suite drives: Debian's Chromium (Playwright never downloads a browser),
 * Debian's AWS CLI (an independent S3 client), kubectl (an independent Kubernetes client) and Prometheus (a
 * real scraper and PromQL engine). Installed with apt-get when missing on Debian/Ubuntu as root; otherwise
 * we stop and say how to get them.
 */

interface SystemProgram {
  path: string;
  debianPackage: string;
  purpose: string;
  /**
   * debconf answers given before installing (debconf-set-selections lines): a package whose installer would
   * otherwise set up and start a system service the tests do not want.
   */
  preseed?: string[];
}

export const CHROMIUM: SystemProgram = {
  path: "/usr/bin/chromium",
  debianPackage: "chromium",
  purpose: "browser tests",
};
export const AWS_CLI: SystemProgram = {
  path: "/usr/bin/aws",
  debianPackage: "awscli",
  purpose: "S3 conformance tests",
};
export const KUBECTL: SystemProgram = {
  path: "/usr/bin/kubectl",
  debianPackage: "kubectl",
  purpose: "checking the Kubernetes stand-in",
};
/** Debian's Prometheus server and promtool: they parse and scrape the storage's metrics in the metrics tests. */
export const PROMETHEUS: SystemProgram = {
  path: "/usr/bin/prometheus",
  debianPackage: "prometheus",
  purpose: "metrics tests",
};

/** Debian's nginx: the reverse-proxy tests put Deck behind it as people do (tests/nginx_process.ts). */
export const NGINX: SystemProgram = {
  path: "/usr/sbin/nginx",
  debianPackage: "nginx",
  purpose: "reverse-proxy tests",
};
/** OpenSSL's command line: the TLS tests make their own certificates with it (tests/tls_certs.ts). */
export const OPENSSL: SystemProgram = {
  path: "/usr/bin/openssl",
  debianPackage: "openssl",
  purpose: "TLS tests",
};
/** Debian's systemd tools and strace: the service unit test verifies deploy/deck.service and its call filter. */
export const SYSTEMD_ANALYZE: SystemProgram = {
  path: "/usr/bin/systemd-analyze",
  debianPackage: "systemd",
  purpose: "checking the service unit",
};
export const STRACE: SystemProgram = {
  path: "/usr/bin/strace",
  debianPackage: "strace",
  purpose: "checking the service unit's system call filter",
};
/**
 * Debian's OpenLDAP server and its command-line tools: the LDAP tests start their own slapd in a temporary
 * directory (tests/ldap_directory.ts). The installer is told not to configure a system directory, so no
 * service of the machine's is set up or started.
 */
export const SLAPD: SystemProgram = {
  path: "/usr/sbin/slapd",
  debianPackage: "slapd",
  purpose: "LDAP tests",
  preseed: ["slapd slapd/no_configuration boolean true"],
};
export const LDAP_UTILS: SystemProgram = {
  path: "/usr/bin/ldapmodify",
  debianPackage: "ldap-utils",
  purpose: "LDAP tests",
};
/**
 * Debian's Go and its packaged minio-go (sources under /usr/share/gocode, built offline in GOPATH mode): MinIO's
 * own client drives the archive upload in tests/storage/minio_go_snowball_test.ts.
 */
export const GO: SystemProgram = {
  path: "/usr/bin/go",
  debianPackage: "golang-go",
  purpose: "building MinIO's Go client",
};
export const MINIO_GO: SystemProgram = {
  path: "/usr/share/gocode/src/github.com/minio/minio-go/v7/api-putobject-snowball.go",
  debianPackage: "golang-github-minio-minio-go-v7-dev",
  purpose: "building MinIO's Go client",
};
/** Debian's buildah and podman (with runc): the image test builds and runs the container image. */
export const BUILDAH: SystemProgram = {
  path: "/usr/bin/buildah",
  debianPackage: "buildah",
  purpose: "building the container image",
};
export const PODMAN: SystemProgram = {
  path: "/usr/bin/podman",
  debianPackage: "podman",
  purpose: "running the container image",
};
/**
 * User-mode networking for a container: its port is forwarded without a bridge and veth pair on the host,
 * whose appearance makes Chromium fail whatever it is loading at that moment with ERR_NETWORK_CHANGED.
 */
export const SLIRP4NETNS: SystemProgram = {
  path: "/usr/bin/slirp4netns",
  debianPackage: "slirp4netns",
  purpose: "running the container image beside browser tests",
};
export const RUNC: SystemProgram = {
  path: "/usr/sbin/runc",
  debianPackage: "runc",
  purpose: "running the container image",
};

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function isDebianRoot(): Promise<boolean> {
  const osRelease = await Deno.readTextFile("/etc/os-release").catch(() => "");
  const debianLike = /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease);
  return debianLike && Deno.uid() === 0 && (await exists("/usr/bin/apt-get"));
}

async function preseed(lines: string[]): Promise<boolean> {
  if (lines.length === 0) return true;
  const child = new Deno.Command("debconf-set-selections", { stdin: "piped", stdout: "null" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await writer.close();
  return (await child.status).success;
}

async function aptInstall(packages: string[]): Promise<boolean> {
  const run = async (args: string[]) =>
    (await new Deno.Command("apt-get", {
      args,
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdout: "null",
      stderr: "inherit",
    }).output()).success;
  if (await run(["install", "-y", "--no-install-recommends", ...packages])) return true;
  // A fresh machine may have no package lists yet.
  return (await run(["update"])) && (await run(["install", "-y", "--no-install-recommends", ...packages]));
}

/** Makes sure every program exists; returns an error message, or null when all are present. */
export async function ensureSystemPrograms(programs: SystemProgram[]): Promise<string | null> {
  const missing: SystemProgram[] = [];
  for (const program of programs) if (!(await exists(program.path))) missing.push(program);
  if (missing.length === 0) return null;
  const names = missing.map((p) => p.debianPackage);
  if (await isDebianRoot()) {
    console.log(
      `Installing ${names.join(", ")} with apt-get (needed for ${
        missing.map((p) => p.purpose).join(" and ")
      })...`,
    );
    if ((await preseed(missing.flatMap((p) => p.preseed ?? []))) && (await aptInstall(names))) {
      const still = [];
      for (const p of missing) if (!(await exists(p.path))) still.push(p.path);
      if (still.length === 0) return null;
      return `apt-get finished but ${still.join(", ")} is still missing`;
    }
    return `apt-get could not install ${names.join(", ")}`;
  }
  return `Missing ${missing.map((p) => p.path).join(", ")}. Install the Debian/Ubuntu packages ` +
    `(sudo apt-get install -y ${names.join(" ")}) and run the tests again.`;
}
