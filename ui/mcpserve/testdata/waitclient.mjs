// A client written with the TypeScript SDK, the way its docs show: it asks
// through `followup mcp serve`, prints the request's id, then waits for the
// answer with a 10 s tool timeout that progress resets.
// Usage: node waitclient.mjs SDK_DIR FOLLOWUP DB
const [sdk, followup, db] = process.argv.slice(2);
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${sdk}/dist/esm/client/stdio.js`);

const client = new Client({ name: "ts-wait-client", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: followup, args: ["--db", db, "mcp", "serve"], stderr: "inherit" }));
const text = (r) => JSON.parse(r.content[0].text);
const asked = text(await client.callTool({ name: "input_request", arguments: {
  requestKey: "wait-1", reason: "To name the release",
  source: { kind: "dynamic", definition: { title: "Release", fields: [{ name: "name", type: "text", label: "Name" }] } },
} }));
console.log(JSON.stringify({ requestId: asked.requestId }));
let progress = 0;
try {
  const r = await client.callTool({ name: "input_wait", arguments: { requestId: asked.requestId, timeoutSeconds: 15 } },
    undefined, { timeout: 10000, resetTimeoutOnProgress: true, onprogress: () => progress++ });
  console.log(JSON.stringify({ progress, result: text(r) }));
} catch (e) {
  console.log(JSON.stringify({ progress, error: String(e) }));
}
await client.close();
