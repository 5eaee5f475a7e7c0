"""Command line: `ask`, `console`, `serve`, `socket` and `kb` (design.md, "Command line").

`ask --json -` answers one request per input line in a single process, so scripts and benchmarks can
size thousands of workloads without paying start-up each time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.errors import BadRequestError, ConfigError
from knowledge.errors import KnowledgeError

SWITCH_HELP = {
    "paged_optimizer": "training: a bitsandbytes paged optimizer (states may leave the card)",
    "activation_offloading": "training: activations offloaded to host RAM (torchtune enable_activation_offloading)",
    "optimizer_in_backward": "training: the optimizer steps inside backward, gradients freed at once",
    "chunked_loss": "training: the loss computed over chunks of the sequence (no full logits tensor)",
    "compiled": "training: the recipe runs under torch.compile",
    "preference_pairs": "training: a paired preference loss such as DPO (chosen and rejected completions)",
}
"""One help line per training switch: the keys are bot.understand.question.TRAINING_SWITCHES (a front end reaches
the rest only through the service, so the names are repeated here and a test keeps the two lists equal)."""

FLAGS = ("model", "task", "precision", "quant", "engine", "engine_version", "engine_backend", "kv_cache",
         "memory_fraction",
         "max_num_seqs", "prefill_chunk", "layer_split", "gpu_layers", "cpu_moe_layers", *SWITCH_HELP,
         "budget_amount", "budget_currency", "budget_period", "context", "batch", "resolution", "steps",
         "text_encoders", "gpu", "gpus")


def _add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="model id or name (overrides the text)")
    parser.add_argument("--task", help="inference | train | lora | qlora")
    parser.add_argument("--precision", help="fp32 | fp16 | bf16 | fp8 | int8 | int4")
    parser.add_argument("--quant", help="weight format: gptq, awq, nf4, bnb-int8, gguf-q4_k_m, ...")
    parser.add_argument("--engine", help="transformers | vllm | sglang | lmdeploy | llama.cpp (ollama) | "
                        "tensorrt-llm | unsloth | deepspeed | fsdp | llama-factory | torchtune")
    parser.add_argument("--engine-version", dest="engine_version", help="the engine's version, e.g. 4.38 or 0.6.3")
    parser.add_argument("--engine-backend", dest="engine_backend",
                        help="TensorRT-LLM's backend: tensorrt (a trtllm-build engine, as before 1.0) | pytorch")
    parser.add_argument("--kv-cache", dest="kv_cache", help="KV-cache precision: fp16 | bf16 | fp8 | int8 | int4")
    parser.add_argument("--memory-fraction", dest="memory_fraction",
                        help="the serving engine's share of the card: vLLM gpu_memory_utilization, SGLang "
                             "mem_fraction_static (0-1], e.g. 0.85")
    parser.add_argument("--max-num-seqs", dest="max_num_seqs", help="vLLM max_num_seqs (requests in flight)")
    parser.add_argument("--tensor-split", dest="layer_split",
                        help="llama.cpp --tensor-split: each card's share of the layers, e.g. 10,6")
    parser.add_argument("--prefill-chunk", dest="prefill_chunk",
                        help="tokens per forward pass: llama.cpp -ub, vLLM --max-num-batched-tokens")
    parser.add_argument("--gpu-layers", dest="gpu_layers",
                        help="llama.cpp -ngl / Ollama num_gpu: layers on the cards, the rest in system RAM")
    parser.add_argument("--cpu-moe-layers", dest="cpu_moe_layers",
                        help="llama.cpp --n-cpu-moe: the first N layers keep their MoE experts in system RAM "
                             "(999: --cpu-moe, all of them)")
    for switch in SWITCH_HELP:
        parser.add_argument(f"--{switch.replace('_', '-')}", dest=switch, action="store_const", const=True,
                            default=None, help=SWITCH_HELP[switch])
    parser.add_argument("--budget-amount", dest="budget_amount",
                        help="what can be spent: 1500, 1.5k, 1万 (with --budget-period and --budget-currency)")
    parser.add_argument("--budget-currency", dest="budget_currency", help="USD | CNY | EUR (default: the reply's)")
    parser.add_argument("--budget-period", dest="budget_period",
                        help="hour | day | month | total | purchase (default: total, the whole job)")
    parser.add_argument("--context", help="tokens per sequence (prompt + output): 4096, 32k, 1.5万")
    parser.add_argument("--batch", help="concurrent sequences / micro-batch (images per call): 8, 1k, 两千")
    parser.add_argument("--resolution", help="image generation: pixels per side, e.g. 1024")
    parser.add_argument("--steps", help="image generation: denoising steps per image, e.g. 28")
    parser.add_argument("--text-encoders", dest="text_encoders",
                        help="image-model training: cached (default) | resident (on the card) | trained")
    parser.add_argument("--gpu", help="GPU to check against (id or name)")
    parser.add_argument("--gpus", help="number of GPUs")
    parser.add_argument("--lang", help="reply language: en | zh-Hans | zh-Hant")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gpu-advisor", description="Which GPU, how many, and why.")
    sub = parser.add_subparsers(dest="command")
    ask = sub.add_parser("ask", help="answer one question (or JSON lines from stdin with '-')")
    ask.add_argument("question", nargs="?", default="", help="the question, or '-' to read lines from stdin")
    ask.add_argument("--json", action="store_true", help="print the Answer as JSON")
    ask.add_argument("--maths", action="store_true", help="show the arithmetic behind the estimate")
    ask.add_argument("--format", choices=("text", "md", "csv"), default="text", dest="output_format",
                     help="text (tables on a terminal, plain when piped), md (Markdown table of the picks "
                          "+ the rest as text) or csv (the picks as CSV)")
    _add_flags(ask)
    sub.add_parser("console", help="interactive console (keeps context like a Slack thread)")
    sub.add_parser("serve", help="Slack HTTP mode on $PORT (production server)")
    sub.add_parser("socket", help="Slack Socket Mode (needs SLACK_APP_TOKEN)")
    kb = sub.add_parser("kb", help="knowledge base: check, models, gpus, import")
    kb_sub = kb.add_subparsers(dest="kb_command")
    kb_sub.add_parser("check", help="validate every knowledge file")
    kb_sub.add_parser("models", help="list the models")
    kb_sub.add_parser("gpus", help="list the GPUs")
    imp = kb_sub.add_parser("import", help="add a model from a config.json file or a Hub id (ORG/NAME)")
    imp.add_argument("config", help="path of a config.json, or a Hugging Face repo id such as Qwen/Qwen3-0.6B")
    imp.add_argument("--id", dest="model_id", help="knowledge id (required for a file; a Hub id names itself)")
    imp.add_argument("--name")
    imp.add_argument("--dir", type=Path, help="knowledge dir (default $GPU_ADVISOR_KB or ~/.config/gpu-advisor/kb)")
    from bot.console.prices import add_prices_parser

    add_prices_parser(kb_sub)
    return parser


def _flags_of(args: argparse.Namespace) -> dict[str, Any]:
    return {key: getattr(args, key) for key in (*FLAGS, "lang") if getattr(args, key, None) is not None}


def _is_terminal(out: TextIO) -> bool:
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _emit(answer: Any, as_json: bool, out: TextIO, show_maths: bool = False, output_format: str = "text") -> None:
    from bot.reply.render import render_csv, render_markdown, render_terminal, render_text

    if as_json:
        payload = answer.as_json()
        payload["text"] = render_text(answer, show_maths=show_maths)
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    elif output_format == "csv":
        out.write(render_csv(answer))
    elif output_format == "md":
        out.write(render_markdown(answer, show_maths=show_maths) + "\n")
    elif _is_terminal(out):
        out.write(render_terminal(answer, width=shutil.get_terminal_size().columns, show_maths=show_maths,
                                  color="NO_COLOR" not in os.environ))
    else:
        out.write(render_text(answer, show_maths=show_maths) + "\n")
    out.flush()


def _answer(request: dict[str, Any]) -> Any:
    from bot.service import ask

    return ask(request)


def _ask_lines(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    defaults = _flags_of(args)
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        request: dict[str, Any]
        if line.startswith("{"):
            try:
                loaded = json.loads(line)
            except json.JSONDecodeError as exc:
                out.write(json.dumps({"error": f"invalid JSON: {exc.msg}"}) + "\n")
                continue
            if not isinstance(loaded, dict):
                out.write(json.dumps({"error": "a JSON line must be an object"}) + "\n")
                continue
            request = {**defaults, **loaded}
        else:
            request = {**defaults, "text": line}
        try:
            _emit(_answer(request), args.json, out, args.maths, args.output_format)
        except BadRequestError as exc:
            if args.json:
                out.write(json.dumps({"error": str(exc)}, ensure_ascii=False) + "\n")
            else:
                out.write(f"error: {exc}\n")
        except BrokenPipeError:
            raise
        except Exception as exc:  # one line's defect must not lose the lines after it
            if os.environ.get(DEBUG_ENV):
                raise
            message = _internal_error(exc)
            out.write((json.dumps({"error": message}) if args.json else f"error: {message}") + "\n")
    return 0


DEBUG_ENV = "GPU_ADVISOR_DEBUG"
"""Set to re-raise an unexpected error with its traceback instead of the one-line message."""


def _internal_error(exc: Exception) -> str:
    return (f"something went wrong on my side answering that ({type(exc).__name__}); please report the question. "
            f"Set {DEBUG_ENV}=1 to see the traceback.")


def _kb(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    if args.kb_command == "check":
        from knowledge.check import run_checks

        problems = run_checks(kb)
        for problem in problems:
            err.write(f"{problem}\n")
        if problems:
            err.write(f"kb check: {len(problems)} problem(s)\n")
            return 1
        out.write(f"kb check: ok — {len(kb.models)} models, {len(kb.gpus)} GPUs, "
                  f"{len(kb.instance_families)} instance families, {len(kb.products)} cloud products, "
                  f"{len(kb.faq)} FAQ entries, {len(kb.prices)} prices\n")
        return 0
    if args.kb_command == "prices":
        from bot.console.prices import prices_command

        return prices_command(args, kb, out, err)
    if args.kb_command == "models":
        for model in sorted(kb.models.values(), key=lambda m: (m.family, m.params_b)):
            out.write(f"{model.id:32} {model.params_b:>8g}B  {model.name}\n")
        return 0
    if args.kb_command == "gpus":
        for gpu in sorted(kb.gpus.values(), key=lambda g: (g.vendor, g.memory_gb)):
            out.write(f"{gpu.id:16} {gpu.memory_gb:>6g} GB  {gpu.bandwidth_gbps:>6g} GB/s  {gpu.name}\n")
        return 0
    if args.kb_command == "import":
        from knowledge.hub import HUB_ID, import_from_hub, user_kb_dir
        from knowledge.importer import import_hf_config, write_user_entry

        directory = args.dir or user_kb_dir()
        if not Path(args.config).exists() and HUB_ID.fullmatch(args.config):
            model = import_from_hub(args.config, directory=directory)
            path = directory / "models.yaml"
        else:
            if not args.model_id:
                err.write("kb import: --id is required when importing a config.json file\n")
                return 2
            model = import_hf_config(Path(args.config), args.model_id, name=args.name)
            path = write_user_entry(model, directory)
        out.write(f"imported {model.id} ({model.params_b:.2f}B parameters) into {path}\n")
        if not os.environ.get("GPU_ADVISOR_KB"):
            out.write(f"use it with: export GPU_ADVISOR_KB={directory}\n")
        return 0
    err.write("usage: gpu-advisor kb {check,models,gpus,import}\n")
    return 2


def _default_mode() -> str:
    """Console on a laptop; the Slack mode the settings imply otherwise."""
    if os.environ.get("SLACK_APP_TOKEN") and os.environ.get("SLACK_BOT_TOKEN"):
        return "socket"
    if os.environ.get("SLACK_BOT_TOKEN") and os.environ.get("SLACK_SIGNING_SECRET"):
        return "serve"
    return "console"


SIGPIPE_STATUS = 141
"""What a shell reports for a writer killed by SIGPIPE (128 + 13), as `yes | head` ends."""


def _reader_went_away(out: TextIO) -> int:
    """`kb models | head`: the reader closed the pipe. Point stdout at /dev/null so the interpreter's final
    flush cannot raise again and print a traceback (the recipe in Python's `signal` documentation)."""
    if out is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
    return SIGPIPE_STATUS


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    stdin, out, err = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    args = _parser().parse_args(argv)
    command = args.command or _default_mode()
    try:
        if command == "ask":
            if args.question == "-":
                status = _ask_lines(args, stdin, out)
                out.flush()
                return status
            _emit(_answer({**_flags_of(args), "text": args.question}), args.json, out, args.maths,
                  args.output_format)
            return 0
        if command == "console":
            from bot.console.repl import main as console_main

            return console_main()
        if command == "serve":
            from bot.slack.server import main as serve_main

            return serve_main()
        if command == "socket":
            from bot.slack.socket_mode import main as socket_main

            return socket_main()
        if command == "kb":
            status = _kb(args, out, err)
            out.flush()  # inside the try, so a closed pipe is caught here rather than at interpreter exit
            return status
    except BadRequestError as exc:
        err.write(f"error: {exc}\n")
        return 2
    except (KnowledgeError, ConfigError) as exc:
        err.write(f"gpu-advisor: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_went_away(out)
    except Exception as exc:  # a defect gets one line, not a traceback, unless asked for
        if os.environ.get(DEBUG_ENV):
            raise
        err.write(f"gpu-advisor: {_internal_error(exc)}\n")
        return 1
    err.write(f"unknown command {command!r}\n")
    return 2
