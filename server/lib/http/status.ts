/** HTTP status texts as Go's http.StatusText prints them (audit entries, trace messages). */

/** Go's http.StatusText for the statuses a storage server answers with. */
const STATUS_TEXT: Record<number, string> = {
  100: "Continue",
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  206: "Partial Content",
  301: "Moved Permanently",
  304: "Not Modified",
  307: "Temporary Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Request Entity Too Large",
  416: "Requested Range Not Satisfiable",
  426: "Upgrade Required",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export const statusText = (code: number) => STATUS_TEXT[code] ?? "";
