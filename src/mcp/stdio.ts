/**
 * Quarry's MCP tools over standard input and output, for a desktop assistant that starts
 * `quarry mcp` itself. Standard output carries only the protocol's messages; anything
 * else the process has to say goes to standard error.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { quarryMcpServer, type QuarryBackend } from './tools.ts';

/** Serves the tools on stdio until the client closes its end (the returned promise then resolves). */
export async function serveStdio(backend: QuarryBackend, version: string): Promise<void> {
  const server = quarryMcpServer(backend, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
