// Drives mcp-terminal with the official TypeScript SDK client over streamable HTTP
// (session-based era). Usage: node client.mjs URL TOKEN. Prints one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "ts-sdk-integration", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("")}`);
  return r;
}

const out = {};
const first = await connect();
out.protocolVersion = first.transport.protocolVersion;
out.mcpSession = first.transport.sessionId ?? null;
out.tools = (await first.client.listTools()).tools.map((t) => t.name).sort();
const created = await call(first.client, "create_session", {
  command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ ", HISTFILE: "/dev/null" },
});
const id = created.structuredContent.session_id;
const sent = await call(first.client, "send_command", { session_id: id, input: "echo ts-$((20+22))" });
out.output = sent.structuredContent.output;
out.complete = sent.structuredContent.is_complete;
out.text = sent.content.map((c) => c.text).join("");
// End the MCP session (DELETE); the terminal session belongs to the principal.
await first.transport.terminateSession();
await first.client.close();

const second = await connect();
out.secondMcpSession = second.transport.sessionId ?? null;
out.listed = (await call(second.client, "list_sessions", {})).structuredContent.sessions.map((s) => s.session_id).includes(id);
out.again = (await call(second.client, "send_command", { session_id: id, input: "echo again-$((1+2))" })).structuredContent.output;
out.closed = (await call(second.client, "close_session", { session_id: id })).structuredContent.success;
await second.client.close();
process.stdout.write(JSON.stringify(out));
