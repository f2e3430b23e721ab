/**
 * The YAML library, loaded the first time operator mode reads a kubeconfig or reads or writes a manifest:
 * imported at start it cost every console, operator mode or not, about 5 MiB and 30 ms.
 */
export const loadYaml = (): Promise<typeof import("yaml")> => import("yaml");
