#!/usr/bin/env python3
"""Checks that `coachlab serve-mock` speaks each provider's protocol faithfully, using the
official Python SDKs (openai, anthropic, google-genai) with only their base URL changed.

For each SDK: a whole completion and a stream, reading back the text and the usage, a batch
through the provider's batch API, plus that injected faults surface as the SDK's own error
types. Exits non-zero on any mismatch.

    python3 scripts/check_sdks.py http://127.0.0.1:PORT
"""
import json
import sys
import time

import anthropic
import openai
from google import genai
from google.genai import types

BASE = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8080"
# The mock coach follows what the prompt says (docs/mock.md), so the prompt states the format.
SYSTEM = ("You are Simon, a calm reflective coach. Reply in two short sentences of plain text, "
          "with no emoji and no exclamation marks. End with one question.")
USER = "I want to set goals but I have like 15 things I want to do."
EXPECTED = ("One idea that may help: write down the one thing that matters most this week. "
            "What feels like the most useful next step for you?")

failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + (f": {detail}" if detail and not condition else ""))
    if not condition:
        failures.append(name)


def check_openai():
    client = openai.OpenAI(base_url=BASE + "/v1", api_key="sk-test-not-a-real-key", max_retries=2)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}]
    reply = client.chat.completions.create(model="gpt-4o-mini", messages=messages, max_completion_tokens=200)
    check("openai complete text", reply.choices[0].message.content == EXPECTED, reply.choices[0].message.content)
    check("openai complete usage", reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0)
    check("openai finish_reason", reply.choices[0].finish_reason == "stop")

    text, usage = "", None
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True,
                                            stream_options={"include_usage": True})
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            text += chunk.choices[0].delta.content
        if chunk.usage:
            usage = chunk.usage
    check("openai stream text", text == EXPECTED, text)
    check("openai stream usage", usage is not None and usage.completion_tokens > 0)

    # Embeddings: the SDK asks for base64 by default; floats when told.
    vectors = client.embeddings.create(model="text-embedding-3-small", input=["I cannot sleep tonight", "a recipe for bread"])
    check("openai embeddings", len(vectors.data) == 2 and len(vectors.data[0].embedding) == 256, str(len(vectors.data)))
    floats = client.embeddings.create(model="text-embedding-3-small", input="I cannot sleep tonight", encoding_format="float")
    check("openai embeddings float", all(abs(a - b) < 1e-6 for a, b in zip(floats.data[0].embedding, vectors.data[0].embedding)))

    try:
        client.with_options(max_retries=0).chat.completions.create(
            model="gpt-4o-mini", messages=messages, extra_headers={"x-coachlab-fault": "429"})
        check("openai 429 raises RateLimitError", False)
    except openai.RateLimitError as error:
        check("openai 429 raises RateLimitError", error.status_code == 429)
    try:
        client.chat.completions.create(model="gpt-4o-mini", messages=messages, extra_headers={"x-coachlab-fault": "401"})
        check("openai 401 raises AuthenticationError", False)
    except openai.AuthenticationError:
        check("openai 401 raises AuthenticationError", True)


def check_anthropic():
    client = anthropic.Anthropic(base_url=BASE, api_key="sk-ant-test-not-a-real-key", max_retries=2)
    messages = [{"role": "user", "content": USER}]
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=200, system=SYSTEM, messages=messages)
    text = "".join(block.text for block in reply.content if block.type == "text")
    check("anthropic complete text", text == EXPECTED, text)
    check("anthropic complete usage", reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0)
    check("anthropic stop_reason", reply.stop_reason == "end_turn")

    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=200, system=SYSTEM, messages=messages) as stream:
        streamed = "".join(stream.text_stream)
        final = stream.get_final_message()
    check("anthropic stream text", streamed == EXPECTED, streamed)
    check("anthropic stream usage", final.usage.output_tokens > 0)
    try:
        client.with_options(max_retries=0).messages.create(
            model="claude-sonnet-4-5", max_tokens=200, system=SYSTEM, messages=messages,
            extra_headers={"x-coachlab-fault": "529"})
        check("anthropic 529 raises an overloaded error", False)
    except anthropic.APIStatusError as error:
        check("anthropic 529 raises an overloaded error", error.status_code == 529)


def wait_for(fetch, done, seconds=30):
    """Polls `fetch` until `done` holds of its answer (serve-mock ends batches after --batch-seconds)."""
    deadline = time.time() + seconds
    while True:
        answer = fetch()
        if done(answer) or time.time() > deadline:
            return answer
        time.sleep(0.2)


def check_batches():
    client = openai.OpenAI(base_url=BASE + "/v1", api_key="sk-test-not-a-real-key", max_retries=2)
    line = {"custom_id": "req-1", "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-4o-mini", "max_completion_tokens": 200,
                     "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}]}}
    upload = client.files.create(file=("batch.jsonl", (json.dumps(line) + "\n").encode()), purpose="batch")
    batch = client.batches.create(input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h")
    batch = wait_for(lambda: client.batches.retrieve(batch.id), lambda b: b.status in ("completed", "failed", "expired"))
    check("openai batch completed", batch.status == "completed" and batch.request_counts.completed == 1, batch.status)
    result = json.loads(client.files.content(batch.output_file_id).text.splitlines()[0])
    text = result["response"]["body"]["choices"][0]["message"]["content"]
    check("openai batch result", result["custom_id"] == "req-1" and text == EXPECTED, text)

    client = anthropic.Anthropic(base_url=BASE, api_key="sk-ant-test-not-a-real-key", max_retries=2)
    created = client.messages.batches.create(requests=[{"custom_id": "req-1", "params": {
        "model": "claude-sonnet-4-5", "max_tokens": 200, "system": SYSTEM, "messages": [{"role": "user", "content": USER}]}}])
    ended = wait_for(lambda: client.messages.batches.retrieve(created.id), lambda b: b.processing_status == "ended")
    check("anthropic batch ended", ended.processing_status == "ended" and ended.request_counts.succeeded == 1, ended.processing_status)
    results = list(client.messages.batches.results(created.id))
    text = "".join(block.text for block in results[0].result.message.content) if results and results[0].result.type == "succeeded" else ""
    check("anthropic batch result", len(results) == 1 and results[0].custom_id == "req-1" and text == EXPECTED, text)

    client = genai.Client(api_key="test-not-a-real-key", http_options=types.HttpOptions(base_url=BASE))
    job = client.batches.create(model="gemini-2.0-flash", src=[{
        "contents": [{"role": "user", "parts": [{"text": USER}]}],
        "config": {"system_instruction": {"parts": [{"text": SYSTEM}]}, "max_output_tokens": 200}}])
    job = wait_for(lambda: client.batches.get(name=job.name), lambda j: j.done)
    check("gemini batch succeeded", str(job.state).endswith("JOB_STATE_SUCCEEDED"), str(job.state))
    responses = job.dest.inlined_responses if job.dest else []
    text = responses[0].response.text if responses and responses[0].response else ""
    check("gemini batch result", len(responses) == 1 and text == EXPECTED, text)


def check_gemini():
    client = genai.Client(api_key="test-not-a-real-key", http_options=types.HttpOptions(base_url=BASE))
    config = types.GenerateContentConfig(system_instruction=SYSTEM, max_output_tokens=200, temperature=0.7)
    reply = client.models.generate_content(model="gemini-2.0-flash", contents=USER, config=config)
    check("gemini complete text", reply.text == EXPECTED, reply.text)
    check("gemini complete usage", reply.usage_metadata.prompt_token_count > 0 and reply.usage_metadata.candidates_token_count > 0)

    text, usage = "", None
    for chunk in client.models.generate_content_stream(model="gemini-2.0-flash", contents=USER, config=config):
        text += chunk.text or ""
        usage = chunk.usage_metadata or usage
    check("gemini stream text", text == EXPECTED, text)
    check("gemini stream usage", usage is not None and usage.candidates_token_count > 0)


for check_sdk in (check_openai, check_anthropic, check_gemini, check_batches):
    try:
        check_sdk()
    except Exception as error:  # a crash in an SDK is a protocol mismatch
        check(check_sdk.__name__, False, f"{type(error).__name__}: {error}")

print(f"{len(failures)} failed" if failures else "all SDK checks passed")
sys.exit(1 if failures else 0)
