#!/usr/bin/env python3
"""The control of scripts/bench-peers.sh: the least work a client can do over HTTP, timed.

Sends N Chat Completions requests to `coachlab serve-mock` over C keep-alive HTTP/1.1
connections, each request written as raw bytes and each response read by its
Content-Length: no JSON is parsed, no prompt compiled, nothing scored or stored. What is left
is the server's latency, its own work, and the machine's cost of waking threads on both
sides, which is the part of an eval's time over HTTP no client can remove.

    scripts/http-floor.py PORT [N] [C] [LATENCY_MS]     defaults 2000, 64 and 200

Prints one line: the seconds from the first request to the last response, the share of c/L
(C / LATENCY_MS, the ceiling in requests per second) that is, or with LATENCY_MS 0 the requests
per second, and the median latency it measured. Standard library only.
"""
import asyncio
import json
import statistics
import sys
import time

if len(sys.argv) < 2 or not all(argument.isdigit() for argument in sys.argv[1:5]):
    print("usage: scripts/http-floor.py PORT [N] [C] [LATENCY_MS]   (whole numbers)", file=sys.stderr)
    sys.exit(2)
port = int(sys.argv[1])
total = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
connections = int(sys.argv[3]) if len(sys.argv) > 3 else 64
latency = (float(sys.argv[4]) if len(sys.argv) > 4 else 200) / 1000

# A system prompt the size of a compiled seed pack's (about 4 KB), and one user message.
system = "You are Simon, a reflective coach. Keep replies short and kind. " * 64
body = json.dumps({
    "model": "coachlab-mock-1",
    "messages": [{"role": "system", "content": system},
                 {"role": "user", "content": "I keep putting things off and I want to change that."}],
}).encode()
request = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n" % len(body)) + body


async def connection(remaining, latencies):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while remaining[0] > 0:
            remaining[0] -= 1
            sent = time.perf_counter()
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                status = head.split(b"\r\n")[0].decode()
                raise SystemExit(f"http-floor: the server answered {status}")
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - sent)
    finally:
        writer.close()


async def main():
    remaining, latencies = [total], []
    start = time.perf_counter()
    await asyncio.gather(*(connection(remaining, latencies) for _ in range(connections)))
    return time.perf_counter() - start, latencies


try:
    seconds, latencies = asyncio.run(main())
except OSError as error:
    sys.exit(f"http-floor: no server answered on 127.0.0.1:{port} ({error.strerror or error})")
# With no latency there is no c/L ceiling: the server's own speed is the figure.
share = f"{100 * total / seconds / (connections / latency):.1f}% of c/L" if latency > 0 else f"{total / seconds:.0f} requests/s"
print(f"{seconds:.3f} s for {total} requests at c={connections}: {share}, "
      f"median latency {1000 * statistics.median(latencies):.2f} ms")
