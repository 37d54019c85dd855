/**
 * The RPC ceiling: the least a uWebSockets.js server must do to answer a JSON-RPC request, run as
 * its own process so it can be pinned like the node. It reads the whole request (HTTP POST /rpc or
 * a WS /rpc-ws message), finds which method it names and the request id, and sends the answer the
 * node gave to that method, pre-serialized (same size), with the id spliced in. No JSON parsing,
 * no store: whatever the node spends beyond this is the cost of being a node.
 *
 * Usage: node --import tsx bench/lib/ceiling-server.ts PORT ANSWERS.json
 *   ANSWERS.json: {"<method>": "<the node's JSON answer>", ...}. Prints "ready <port>" once
 *   listening (PORT 0: a free port the OS chose).
 */
import { readFileSync } from 'node:fs';
import uWS from 'uWebSockets.js';

const [portArg, answersFile] = process.argv.slice(2);
if (portArg === undefined || answersFile === undefined) throw new Error('Usage: ceiling-server.ts PORT ANSWERS.json');
const answers = Object.entries(JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, string>).map(([method, json]) => {
  // The answer split around its id so each reply carries the request's id, as a real one must.
  const idAt = json.indexOf('"id":') + 5;
  const idEnd = json.indexOf(',', idAt);
  return { method: Buffer.from(`"${method}"`), head: json.slice(0, idAt), tail: json.slice(idEnd) };
});

const ID = Buffer.from('"id":');

function reply(request: Buffer): string {
  const answer = answers.find((a) => request.includes(a.method)) ?? answers[0]!;
  const idAt = request.indexOf(ID) + ID.length;
  let idEnd = idAt;
  while (idEnd < request.length && request[idEnd] !== 0x2c && request[idEnd] !== 0x7d) idEnd++;
  return answer.head + request.toString('latin1', idAt, idEnd) + answer.tail;
}

uWS
  .App()
  .post('/rpc', (res, _req) => {
    let aborted = false;
    const chunks: Buffer[] = [];
    res.onAborted(() => (aborted = true));
    res.onData((chunk, isLast) => {
      // uWS reuses the chunk's memory after this callback: copy it.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast || aborted) return;
      const body = reply(Buffer.concat(chunks));
      res.cork(() => res.writeHeader('content-type', 'application/json').end(body));
    });
  })
  .ws('/rpc-ws', {
    compression: uWS.DISABLED,
    maxPayloadLength: 1 << 20,
    message: (ws, message) => {
      ws.send(reply(Buffer.from(message)), false, false);
    },
  })
  .listen('127.0.0.1', Number(portArg), (socket) => {
    if (!socket) throw new Error(`Cannot listen on port ${portArg}.`);
    process.stdout.write(`ready ${uWS.us_socket_local_port(socket as unknown as uWS.us_socket)}\n`);
  });
