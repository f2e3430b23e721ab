/** GET /api/v1/admin/info, basic shape (api-index §3, shape 1). */

export interface DriveInfo {
  uuid: string;
  state: string;
  endpoint: string;
  drivePath: string;
  rootDisk: boolean;
  healing: boolean;
  model: string;
  totalSpace: number;
  usedSpace: number;
  availableSpace: number;
}

export interface ServerInfo {
  state: string;
  endpoint: string;
  uptime: number;
  version: string;
  commitID: string;
  poolNumber: number;
  network: Record<string, string>;
  drives: DriveInfo[];
}

export interface AdminInfo {
  buckets: number;
  objects: number;
  usage: number;
  servers: ServerInfo[];
}
