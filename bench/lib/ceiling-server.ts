/**
 * The RPC ceiling: the least a uWebSockets.js server must do to answer a JSON-RPC request, run as
 * its own process so it can be pinned like the node. It reads the whole request (HTTP POST /rpc or
 * a WS /rpc-ws message), finds which method it names and the request id, and sends the answer the
 * node gave to that method, pre-serialized (same size), with the id spliced in. No JSON parsing,
 * no store: whatever the node spends beyond this is the cost of being a node.
 *
 * Usage: node --import tsx bench/lib/ceiling-server.ts PORT ANSWERS.json
 *   ANSWERS.json: {"<method>": "<the node's JSON answer>" | ["<answer at height 0>", ...], ...}.
 *   A method with a list of answers is answered by the request's `"height":` (the digits after
 *   it, read straight from the bytes: no JSON parsing either), so random-height loads get the
 *   node's bytes for each height. Prints "ready <port>" once listening (PORT 0: a free port the
 *   OS chose).
 */
import { readFileSync } from 'node:fs';
import uWS from 'uWebSockets.js';

/** A pre-serialized answer split around its id, so each reply carries the request's id, as a real one must. */
interface Framed {
  readonly head: string;
  readonly tail: string;
}

const [portArg, answersFile] = process.argv.slice(2);
if (portArg === undefined || answersFile === undefined) throw new Error('Usage: ceiling-server.ts PORT ANSWERS.json');

function framed(json: string): Framed {
  const idAt = json.indexOf('"id":') + 5;
  const idEnd = json.indexOf(',', idAt);
  return { head: json.slice(0, idAt), tail: json.slice(idEnd) };
}

const answers = Object.entries(JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, string | string[]>).map(
  ([method, json]) => ({
    method: Buffer.from(`"${method}"`),
    byHeight: Array.isArray(json) ? json.map(framed) : undefined,
    one: Array.isArray(json) ? framed(json[0]!) : framed(json),
  }),
);

const ID = Buffer.from('"id":');
const HEIGHT = Buffer.from('"height":');

/** The unsigned integer written at `at` in `request` (digits only; stops at the first other byte). */
function numberAt(request: Buffer, at: number): { value: number; end: number } {
  let value = 0;
  let end = at;
  for (; end < request.length && request[end]! >= 0x30 && request[end]! <= 0x39; end++) value = value * 10 + request[end]! - 0x30;
  return { value, end };
}

function reply(request: Buffer): string {
  const answer = answers.find((a) => request.includes(a.method)) ?? answers[0]!;
  let chosen = answer.one;
  if (answer.byHeight !== undefined) {
    const at = request.indexOf(HEIGHT);
    if (at >= 0) chosen = answer.byHeight[numberAt(request, at + HEIGHT.length).value] ?? chosen;
  }
  const idAt = request.indexOf(ID) + ID.length;
  let idEnd = idAt;
  while (idEnd < request.length && request[idEnd] !== 0x2c && request[idEnd] !== 0x7d) idEnd++;
  return chosen.head + request.toString('latin1', idAt, idEnd) + chosen.tail;
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
