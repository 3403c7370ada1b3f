/** The client from Node: gRPC (HTTP/2, the server's gRPC port) or Connect (its HTTP port). */
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { MeeplemindClient, type ClientOptions } from "./client.js";

export * from "./client.js";

/** A client of the server at `baseUrl`: "http://127.0.0.1:50051" speaks gRPC; with
 * `protocol: "connect"`, e.g. "http://127.0.0.1:8080", the Connect protocol (JSON). */
export function connect(baseUrl: string, options: ClientOptions & { protocol?: "grpc" | "connect" } = {}): MeeplemindClient {
  const transport = options.protocol === "connect"
    ? createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false })
    : createGrpcTransport({ baseUrl });
  return new MeeplemindClient(transport, options);
}
