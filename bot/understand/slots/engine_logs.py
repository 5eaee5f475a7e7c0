"""What a pasted engine log states about the set-up that runs: vLLM's metrics line (requests running and waiting,
KV-cache use), the release its start-up names, and the KV-cache tokens the engine reports.

The parser reads these before log lines are masked from the other slots (bot.understand.logs): a log's numbers are
the log's, not the question's, and these few are the facts the reply uses about the running set-up.
"""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

_LOGGED_KV_TOKENS = rx(r"maximum\s+number\s+of\s+tokens\s+that\s+can\s+be\s+stored\s+in\s+kv\s+cache\s*"
                       r"\((?P<n>\d{1,9})\)"
                       r"|gpu\s+kv\s+cache\s+size:\s*(?P<n2>\d{1,3}(?:,\d{3})+|\d{1,9})\s+tokens"
                       r"|kv\s+cache\s+is\s+allocated\.?\s*\#tokens:\s*(?P<n3>\d{1,9})"
                       r"|max\s+cached\s+tokens:\s*(?P<n4>\d{1,9})")
"""The tokens a pasted engine log says its KV cache holds: vLLM's start-up error or "GPU KV cache size: N tokens",
SGLang's "KV Cache is allocated. #tokens: N", LMDeploy TurboMind's "max cached tokens: N"."""


_LOGGED_QUEUE = rx(r"running:\s*(?P<run>\d{1,6})\s*reqs?.{0,60}?pending:\s*(?P<pend>\d{1,6})\s*reqs?.{0,40}?"
                   r"gpu\s+kv\s+cache\s+usage:\s*(?P<use>\d{1,3}(?:\.\d+)?)\s*%")
"""vLLM's periodic metrics line: the requests running and waiting, and how full the KV cache is."""


def read_logged_queue(state: SlotState) -> None:
    """The last metrics line a pasted vLLM log shows: [running, pending, KV-cache use %]."""
    found = list(_LOGGED_QUEUE.finditer(state.folded))
    if found:
        last = found[-1]
        state.values["logged_queue"] = [float(last.group("run")), float(last.group("pend")),
                                        float(last.group("use"))]


_LOGGED_VERSION = rx(r"vllm\s+api\s+server\s+version\s+v?(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)|"
                   r"initializing\s+a\s+v[01]\s+llm\s+engine\s+\(v(?P<v2>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)")
"""The release a pasted vLLM start-up log names ("vLLM API server version 0.8.5", "Initializing a V1 LLM engine
(v0.8.5)"): the profile the reply sizes with, where its defaults changed between releases (audit 38 HIGH-116)."""


def read_logged_version(state: SlotState) -> None:
    """The vLLM release a pasted start-up log states, read before log lines are masked from the other slots."""
    m = _LOGGED_VERSION.search(state.folded)
    if m is not None:
        state.set("engine_version", m.group("v") or m.group("v2"))


def read_logged_kv_tokens(state: SlotState) -> None:
    """The KV-cache tokens a pasted engine log states, read before log lines are masked from the other slots
    (their numbers are the log's, not the question's)."""
    m = _LOGGED_KV_TOKENS.search(state.folded)
    if m is not None:
        tokens = int(next(g for g in m.group("n", "n2", "n3", "n4") if g).replace(",", ""))
        if tokens > 0:
            state.values["logged_kv_tokens"] = tokens
