// Drives mcp-terminal over stdio with the official TypeScript SDK client
// (session-based era), declaring the elicitation capability and answering every
// question with ACTION. Usage: node elicit.mjs BINARY ACTION DANGEROUS_INPUT.
// Prints one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [binary, action, danger] = process.argv.slice(2);

const transport = new StdioClientTransport({ command: binary, args: [], env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-sdk-elicitation", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const out = { questions: [] };
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  out.questions.push(request.params.message);
  return { action };
});
await client.connect(transport);

const text = (r) => r.content.map((c) => c.text).join("");
const created = await client.callTool({
  name: "create_session",
  arguments: { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ ", HISTFILE: "/dev/null" } },
});
const id = created.structuredContent.session_id;
out.session = id;
const sent = await client.callTool({
  name: "send_command",
  arguments: { session_id: id, input: `echo before-it\n${danger}\necho after-it` },
});
out.sent = { isError: !!sent.isError, text: text(sent) };
const confirmed = await client.callTool({
  name: "confirm_dangerous_command",
  arguments: { session_id: id, input: danger, justification: "the agent insists it is needed" },
});
out.confirmed = { isError: !!confirmed.isError, text: text(confirmed) };
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
