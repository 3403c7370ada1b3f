// The page's calls to the service: `unary` and `serverStream` by "Service/Method" with proto3
// JSON (proto field names), and `RpcError`. They live in the TypeScript client
// (clients/typescript/src/web.ts), built with the message types buf generates from proto/
// into the bundle meeplemind-rpc.js (`make serve` and `make install` build it; not committed).
export { RpcError, serverStream, unary } from "./meeplemind-rpc.js";
