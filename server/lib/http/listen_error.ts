/**
 * The listener could not take its address: in use, not permitted, or not an address of this machine. Apart
 * from listener.ts (which loads node:http) so the storage thread's launcher can name the error without it.
 */
export class ListenError extends Error {
  constructor(readonly address: string, readonly reason: string) {
    super(`${address} ${reason}`);
    this.name = "ListenError";
  }
}
