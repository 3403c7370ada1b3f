// The Connect protocol over fetch: unary calls as plain JSON, server streams as enveloped JSON.
// Field names are the proto names (puerto_rico), as the server writes them.

const PREFIX = "/meeplemind.v1.";

/** A failed call: its Connect code ("invalid_argument"...) and message (naming the field). */
export class RpcError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = message;
  }
}

function headers(extra = {}) {
  const token = sessionStorage.getItem("meeplemind-token");
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

/** Calls `service/method` with `body`; the reply's JSON, or RpcError. */
export async function unary(method, body, { signal, timeoutMs } = {}) {
  const extra = { "content-type": "application/json", "connect-protocol-version": "1" };
  if (timeoutMs) extra["connect-timeout-ms"] = String(timeoutMs);
  const reply = await fetch(PREFIX + method, { method: "POST", headers: headers(extra), body: JSON.stringify(body), signal });
  const text = await reply.text();
  let data;
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    throw new RpcError("unknown", `HTTP ${reply.status}: ${text.slice(0, 200)}`);
  }
  if (!reply.ok) throw new RpcError(data.code || "unknown", data.message || `HTTP ${reply.status}`);
  return data;
}

function envelope(json) {
  const payload = new TextEncoder().encode(JSON.stringify(json));
  const framed = new Uint8Array(5 + payload.length);
  new DataView(framed.buffer).setUint32(1, payload.length);
  framed.set(payload, 5);
  return framed;
}

/**
 * Calls the server-streaming `method`, handing each message to `onMessage`; resolves when the
 * stream ends, rejects with RpcError. Aborting `signal` cancels the call (and the search).
 */
export async function serverStream(method, body, onMessage, { signal } = {}) {
  const reply = await fetch(PREFIX + method, {
    method: "POST", body: envelope(body), signal,
    headers: headers({ "content-type": "application/connect+json", "connect-protocol-version": "1" }),
  });
  if (!reply.ok) {
    const text = await reply.text();
    let data = {};
    try { data = JSON.parse(text); } catch { /* not JSON: the status says it */ }
    throw new RpcError(data.code || "unknown", data.message || `HTTP ${reply.status}`);
  }
  const reader = reply.body.getReader();
  let buffer = new Uint8Array(0);
  for (;;) {
    const { value, done } = await reader.read();
    if (value) {
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer);
      joined.set(value, buffer.length);
      buffer = joined;
    }
    while (buffer.length >= 5) {
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) break;
      const flags = buffer[0];
      const data = JSON.parse(new TextDecoder().decode(buffer.subarray(5, 5 + length)));
      buffer = buffer.subarray(5 + length);
      if (flags & 2) {  // end of stream
        if (data.error) throw new RpcError(data.error.code, data.error.message || "");
        return;
      }
      onMessage(data);
    }
    if (done) throw new RpcError("unavailable", "the stream ended without its end message");
  }
}
