/**
 * The web page's calls (web/rpc.js re-exports them from the bundle web/meeplemind-rpc.js):
 * `unary` and `serverStream` by "Service/Method" with the proto3 JSON of the request (proto
 * field names, as position files have them), over Connect from the browser. Each request is
 * read into, and each reply written from, the message type buf generates from proto/, so a
 * field the contract does not have is refused here, naming it.
 */
import { fromJson, toJson, type DescMethod, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { Analysis } from "./gen/meeplemind/v1/analysis_pb.js";
import { Rules } from "./gen/meeplemind/v1/rules_pb.js";

const SERVICES = [Rules, Analysis];

/** A failed call: its Connect code ("invalid_argument"...) and message (naming the field). */
export class RpcError extends Error {
  readonly code: string;
  readonly detail: string;

  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = message;
  }
}

interface Found {
  method: DescMethod;
  call: (request: unknown, options: object) => unknown;
}

let transport: Transport | undefined;

function find(name: string): Found {
  const [service, method] = name.split("/");
  for (const desc of SERVICES) {
    const found = desc.name === service ? desc.methods.find((m) => m.name === method) : undefined;
    if (found) {
      transport ??= createConnectTransport({ baseUrl: globalThis.location.origin, useBinaryFormat: false });
      const client = createClient(desc, transport) as unknown as Record<string, Found["call"]>;
      return { method: found, call: client[found.localName].bind(client) };
    }
  }
  throw new RpcError("unimplemented", `no method ${name} in the contract`);
}

function headers(): Record<string, string> {
  const token = globalThis.sessionStorage?.getItem("meeplemind-token");
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The Connect code's name in snake case, as the protocol writes it ("invalid_argument"). */
function codeName(code: Code): string {
  return Code[code].replace(/[A-Z]/g, (c, at: number) => (at ? "_" : "") + c.toLowerCase());
}

function failure(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof ConnectError) {
    // fetch's TypeError: no answer at all (the server is down or the network is cut)
    return new RpcError(error.cause instanceof TypeError ? "unavailable" : codeName(error.code), error.rawMessage);
  }
  return new RpcError("invalid_argument", String(error instanceof Error ? error.message : error));
}

function request(found: Found, body: JsonValue): unknown {
  try {
    return fromJson(found.method.input, body);
  } catch (e) {
    throw failure(e);
  }
}

function reply(found: Found, message: unknown): JsonObject {
  return toJson(found.method.output, message as never, { useProtoFieldName: true, alwaysEmitImplicit: true }) as JsonObject;
}

/** Calls `Service/Method` with `body` (proto3 JSON); the reply's JSON, or RpcError. */
export async function unary(name: string, body: JsonValue,
                            { signal, timeoutMs }: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<JsonObject> {
  const found = find(name);
  try {
    return reply(found, await found.call(request(found, body), { signal, timeoutMs, headers: headers() }));
  } catch (e) {
    throw failure(e);
  }
}

/** Calls the server-streaming `Service/Method`, handing each message's JSON to `onMessage`;
 * resolves when the stream ends, rejects with RpcError. Aborting `signal` cancels the call. */
export async function serverStream(name: string, body: JsonValue, onMessage: (message: JsonObject) => void,
                                   { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  const found = find(name);
  try {
    const stream = found.call(request(found, body), { signal, headers: headers() }) as AsyncIterable<unknown>;
    for await (const message of stream) onMessage(reply(found, message));
  } catch (e) {
    throw failure(e);
  }
}
