/**
 * What this machine can honestly say about itself for the health-info report's `sys` section, in madmin's
 * v3 shapes (health.go: every entry carries the node's `addr`, and `error` when a fact could not be read).
 * Read from /proc, /sys and /etc as madmin's own collectors (gopsutil, procfs) read them; a fact that cannot
 * be read is left out or named in `error`, never guessed.
 */

const readText = (path: string) => Deno.readTextFile(path).then((t) => t, () => null);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** CPUs grouped by physical package, as madmin's GetCPUs. */
export async function cpuFacts(addr: string) {
  const info = await readText("/proc/cpuinfo");
  if (info === null) return { addr, error: "/proc/cpuinfo cannot be read" };
  const packages = new Map<string, Record<string, unknown>>();
  for (const block of info.split(/\n\s*\n/)) {
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(block)?.[1] ?? "";
    if (!/^processor\s*:/m.test(block)) continue;
    const id = field("physical id");
    const known = packages.get(id);
    if (known) {
      known.cores = (known.cores as number) + 1;
      continue;
    }
    packages.set(id, {
      vendor_id: field("vendor_id"),
      family: field("cpu family"),
      model: field("model"),
      stepping: Number(field("stepping")) || 0,
      physical_id: id,
      model_name: field("model name"),
      mhz: Number(field("cpu MHz")) || 0,
      cache_size: Number.parseInt(field("cache size")) || 0,
      flags: field("flags").split(" ").filter(Boolean),
      microcode: field("microcode"),
      cores: 1,
    });
  }
  return { addr, cpus: [...packages.values()] };
}

/** The mount holding the data directory, with its space (madmin Partition). */
export async function partitionFacts(addr: string, dataDir: string, space: { total: number; free: number }) {
  const mounts = await readText("/proc/self/mounts");
  if (mounts === null) return { addr, error: "/proc/self/mounts cannot be read" };
  const real = await Deno.realPath(dataDir).catch(() => dataDir);
  let best: string[] | null = null;
  for (const line of mounts.split("\n")) {
    const parts = line.split(" ");
    if (parts.length < 4) continue;
    const point = parts[1].replace(/\\040/g, " ");
    if (
      (real === point || real.startsWith(point.endsWith("/") ? point : `${point}/`)) &&
      (!best || point.length > best[1].length)
    ) best = [parts[0], point, parts[2], parts[3]];
  }
  if (!best) return { addr, error: `no mount found for ${dataDir}` };
  const [device, mountpoint, fsType, options] = best;
  const partition: Record<string, unknown> = {
    device,
    mountpoint,
    fs_type: fsType,
    mount_options: options,
    mount_fs_type: fsType,
    space_total: space.total,
    space_free: space.free,
  };
  const stat = await Deno.stat(real).catch(() => null);
  if (stat?.dev) {
    Object.assign(partition, {
      major: Math.floor(stat.dev / 256) & 0xfff,
      minor: (stat.dev & 0xff) | ((stat.dev >> 12) & 0xfff00),
    });
  }
  return { addr, partitions: [partition] };
}

/** Operating system facts (gopsutil host.InfoStat's keys). */
export async function osFacts(addr: string, anonymize: boolean) {
  const release = (await readText("/etc/os-release")) ?? "";
  const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, "m").exec(release)?.[1] ?? "";
  const uptime = Deno.osUptime();
  const procs = await countProcesses();
  return {
    addr,
    info: {
      hostname: anonymize ? "server1" : Deno.hostname(),
      uptime,
      bootTime: Math.floor(Date.now() / 1000) - uptime,
      procs,
      os: Deno.build.os,
      platform: field("ID"),
      platformFamily: field("ID_LIKE") || field("ID"),
      platformVersion: field("VERSION_ID"),
      kernelVersion: Deno.osRelease(),
      kernelArch: Deno.build.arch,
      ...(anonymize ? {} : { hostId: ((await readText("/etc/machine-id")) ?? "").trim() }),
    },
  };
}

async function countProcesses(): Promise<number> {
  let n = 0;
  for await (const entry of Deno.readDir("/proc")) if (entry.isDirectory && /^\d+$/.test(entry.name)) n++;
  return n;
}

/** Memory and swap, with the cgroup limit when one is set below the machine's memory (madmin MemInfo). */
export async function memoryFacts(addr: string) {
  const m = Deno.systemMemoryInfo();
  const meminfo = (await readText("/proc/meminfo")) ?? "";
  const shared = Number(/^Shmem:\s+(\d+) kB/m.exec(meminfo)?.[1] ?? 0) * 1024;
  const cgroup = ((await readText("/sys/fs/cgroup/memory.max")) ??
    (await readText("/sys/fs/cgroup/memory/memory.limit_in_bytes")) ?? "").trim();
  const limit = /^\d+$/.test(cgroup) && Number(cgroup) < m.total ? Number(cgroup) : m.total;
  return {
    addr,
    total: m.total,
    used: m.total - m.available,
    free: m.free,
    available: m.available,
    shared,
    cache: m.cached,
    buffer: m.buffers,
    swap_space_total: m.swapTotal,
    swap_space_free: m.swapFree,
    limit,
  };
}

/** This process (madmin ProcInfo), from /proc/self. */
export async function processFacts(addr: string) {
  const out: Record<string, unknown> = { addr, pid: Deno.pid, ppid: Deno.ppid, is_running: true };
  try {
    const status = (await readText("/proc/self/status")) ?? "";
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1] ?? "";
    const cmdline = ((await readText("/proc/self/cmdline")) ?? "").split("\0").filter(Boolean);
    let fds = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) fds++;
    const stat = ((await readText("/proc/self/stat")) ?? "").split(") ").pop()!.split(" ");
    const ticks = 100; // USER_HZ on Linux
    const memory = Deno.memoryUsage();
    Object.assign(out, {
      name: field("Name"),
      status: field("State").split(" ")[0],
      // Arguments are not meant for secrets (Deck takes them from the environment), but one named like a secret is masked.
      cmd_line: cmdline.map((arg) =>
        arg.replace(/^(--?[\w-]*(password|secret|token|key)[\w-]*=).*$/i, "$1*REDACTED*")
      ).join(" "),
      exec_path: Deno.execPath(),
      cwd: Deno.cwd(),
      num_threads: Number(field("Threads")) || 0,
      num_fds: fds,
      uids: field("Uid").split(/\s+/).filter(Boolean).map(Number),
      gids: field("Gid").split(/\s+/).filter(Boolean).map(Number),
      create_time: Math.round((Date.now() / 1000 - Deno.osUptime() + Number(stat[19]) / ticks) * 1000),
      times: { user: Number(stat[11]) / ticks, system: Number(stat[12]) / ticks },
      mem_info: {
        rss: memory.rss,
        vms: (Number(field("VmSize").replace(/\D/g, "")) || 0) * 1024,
        hwm: (Number(field("VmHWM").replace(/\D/g, "")) || 0) * 1024,
      },
    });
  } catch (error) {
    out.error = errorText(error);
  }
  return out;
}

/** Network interfaces with the driver behind each (madmin NetInfo); loopback left out. */
export async function networkFacts(addr: string) {
  const names = [...new Set(Deno.networkInterfaces().map((i) => i.name))].filter((name) => name !== "lo")
    .sort();
  return await Promise.all(names.map(async (name) => {
    const driver = await Deno.realPath(`/sys/class/net/${name}/device/driver`).then(
      (p) => p.slice(p.lastIndexOf("/") + 1),
      () => "",
    );
    return driver
      ? { addr, interface: name, driver }
      : { addr, interface: name, error: "no device driver (a virtual interface)" };
  }));
}

/** madmin's system checks: kernel audit on, updatedb installed (both slow a storage server down). */
export async function systemErrors(addr: string) {
  const errors: string[] = [];
  const problems: string[] = [];
  const cmdline = await readText("/proc/cmdline");
  if (cmdline === null) problems.push("audit: /proc/cmdline cannot be read");
  else if (cmdline.includes("audit=1") || (await kauditdRunning())) errors.push("audit is enabled");
  const path = (Deno.env.get("PATH") ?? "").split(":").filter(Boolean);
  for (const dir of path) {
    if (await Deno.stat(`${dir}/updatedb`).then((s) => s.isFile, () => false)) {
      errors.push("updatedb is installed");
      break;
    }
  }
  return {
    addr,
    ...(errors.length ? { errors } : {}),
    ...(problems.length ? { error: problems.join(", ") } : {}),
  };
}

async function kauditdRunning(): Promise<boolean> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    if ((await readText(`/proc/${entry.name}/comm`))?.trim() === "kauditd") return true;
  }
  return false;
}

/** Services that affect a storage server: SELinux, as madmin reports it. */
export async function systemServices(addr: string) {
  const config = await readText("/etc/selinux/config");
  const status = config === null ? "not-installed" : /^\s*SELINUX=(\S+)/m.exec(config)?.[1] ?? "";
  return { addr, services: [{ name: "selinux", status }] };
}

/** Kernel settings that matter to a storage server (madmin SysConfig). */
export async function systemConfig(addr: string) {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  const limits = await readText("/proc/self/limits");
  const openFiles = limits && /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits);
  if (openFiles) config["rlimit-max"] = openFiles[2] === "unlimited" ? -1 : Number(openFiles[2]);
  else problems.push("rlimit: /proc/self/limits cannot be read");
  config["time-info"] = {
    current_time: new Date().toISOString(),
    roundtrip_duration: 0,
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  const thp: Record<string, string> = {};
  for (
    const [name, path] of [["enabled", "enabled"], ["defrag", "defrag"], [
      "max_ptes_none",
      "khugepaged/max_ptes_none",
    ]]
  ) {
    const value = await readText(`/sys/kernel/mm/transparent_hugepage/${path}`);
    if (value === null) thp[`${name}_error`] = `/sys/kernel/mm/transparent_hugepage/${path} cannot be read`;
    else thp[name] = value.trim();
  }
  config["thp-config"] = thp;
  const cmdline = await readText("/proc/cmdline");
  if (cmdline !== null) config["proc-cmdline"] = cmdline.trim().split(/\s+/);
  else problems.push("proc-cmdline: /proc/cmdline cannot be read");
  return { addr, config, ...(problems.length ? { error: problems.join(", ") } : {}) };
}

/** The machine's product identity from DMI ("unknown" where it cannot be read, as madmin). */
export async function productFacts(addr: string, anonymize: boolean) {
  const dmi = async (name: string) =>
    ((await readText(`/sys/class/dmi/id/${name}`)) ?? "unknown").trim() || "unknown";
  return {
    addr,
    family: await dmi("product_family"),
    name: await dmi("product_name"),
    vendor: await dmi("sys_vendor"),
    serial_number: anonymize ? "" : await dmi("product_serial"),
    uuid: anonymize ? "" : await dmi("product_uuid"),
    sku: await dmi("product_sku"),
    version: await dmi("product_version"),
  };
}
