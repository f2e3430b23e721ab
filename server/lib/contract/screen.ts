/**
 * What every screen's view model shares: the parts of it that could not be read. A service builds a screen's
 * view model once; the page renders it and the island reloads it through one endpoint, so both say the same.
 */

/** A part of a screen that could not be read: the section as the user reads it ("Versioning"), and why. */
export interface PartFailure {
  section: string;
  status: number;
  message: string;
  detail: string;
}
