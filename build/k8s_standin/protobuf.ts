/**
 * Protobuf request bodies: kubectl's typed commands (`create namespace`, `create secret`) send built-in kinds
 * as `application/vnd.kubernetes.protobuf`, a "k8s\0" magic followed by a runtime.Unknown envelope around the
 * object (k8s.io/apimachinery runtime/serializer/protobuf). Decodes the kinds those commands create, by the
 * field numbers of k8s.io/api's generated.proto; answers stay JSON, which the same clients accept.
 */

type Field = { number: number; wire: number; value: bigint | Uint8Array };

/** Reads the fields of one protobuf message (wire types 0, 1, 2 and 5). */
function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= bytes.length) throw new Error("truncated varint");
      const byte = bytes[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const wire = key & 7;
    const number = key >> 3;
    if (wire === 0) out.push({ number, wire, value: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ number, wire, value: bytes.subarray(at, at + length) });
      at += length;
    } else if (wire === 1 || wire === 5) {
      out.push({ number, wire, value: bytes.subarray(at, at + (wire === 1 ? 8 : 4)) });
      at += wire === 1 ? 8 : 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const text = (v: bigint | Uint8Array) => new TextDecoder().decode(v as Uint8Array);
const bytesOf = (v: bigint | Uint8Array) => v as Uint8Array;

/** A map<string, V> entry list: key is field 1, value field 2. */
function mapEntries(
  list: Field[],
  number: number,
  value: (v: bigint | Uint8Array) => string,
): Record<string, string> | undefined {
  const entries = list.filter((f) => f.number === number);
  if (entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const parts = fields(bytesOf(entry.value));
    const key = parts.find((p) => p.number === 1);
    const val = parts.find((p) => p.number === 2);
    out[key ? text(key.value) : ""] = val ? value(val.value) : "";
  }
  return out;
}

function objectMeta(bytes: Uint8Array): Record<string, unknown> {
  const list = fields(bytes);
  const str = (n: number) => {
    const f = list.find((x) => x.number === n);
    return f ? text(f.value) : undefined;
  };
  const meta: Record<string, unknown> = {};
  if (str(1)) meta.name = str(1);
  if (str(2)) meta.generateName = str(2);
  if (str(3)) meta.namespace = str(3);
  const labels = mapEntries(list, 11, text);
  const annotations = mapEntries(list, 12, text);
  if (labels) meta.labels = labels;
  if (annotations) meta.annotations = annotations;
  const finalizers = list.filter((f) => f.number === 14).map((f) => text(f.value));
  if (finalizers.length) meta.finalizers = finalizers;
  return meta;
}

/** Decodes a protobuf body of a Namespace or Secret; throws for anything else. */
export function decodeProtobufObject(body: Uint8Array): Record<string, unknown> {
  if (body[0] !== 0x6b || body[1] !== 0x38 || body[2] !== 0x73 || body[3] !== 0) {
    throw new Error("missing the k8s protobuf magic");
  }
  const envelope = fields(body.subarray(4));
  const typeMeta = fields(bytesOf(envelope.find((f) => f.number === 1)?.value ?? new Uint8Array()));
  const apiVersion = text(typeMeta.find((f) => f.number === 1)?.value ?? new Uint8Array());
  const kind = text(typeMeta.find((f) => f.number === 2)?.value ?? new Uint8Array());
  const raw = fields(bytesOf(envelope.find((f) => f.number === 2)?.value ?? new Uint8Array()));
  const part = (n: number) => raw.find((f) => f.number === n);
  const metadata = part(1) ? objectMeta(bytesOf(part(1)!.value)) : {};
  if (kind === "Namespace") return { apiVersion, kind, metadata };
  if (kind === "Secret") {
    const secret: Record<string, unknown> = { apiVersion, kind, metadata };
    const data = mapEntries(raw, 2, (v) => bytesOf(v).toBase64());
    if (data) secret.data = data;
    if (part(3)) secret.type = text(part(3)!.value);
    const stringData = mapEntries(raw, 4, text);
    if (stringData) secret.stringData = stringData;
    if (part(5)) secret.immutable = part(5)!.value === 1n;
    return secret;
  }
  throw new Error(
    `protobuf bodies of kind ${kind || "unknown"} are not supported by the stand-in; send JSON`,
  );
}
