/** The threads of a process as `ps -L` shows them (Linux /proc), for tests of which work runs where. */

/** The nice value of thread `tid` of process `pid` (field 19 of the thread's stat). */
export function threadNice(pid: number, tid: string | number): number {
  return Number(Deno.readTextFileSync(`/proc/${pid}/task/${tid}/stat`).split(") ")[1].split(" ")[16]);
}

/** The ids of the process's threads running at nice value `nice`. */
export function threadsAtNice(pid: number, nice: number): Set<string> {
  return new Set(
    [...Deno.readDirSync(`/proc/${pid}/task`)].map((task) => task.name).filter((tid) =>
      threadNice(pid, tid) === nice
    ),
  );
}
