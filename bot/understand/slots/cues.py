"""What a question asks for beside the sizing itself: a cost, a price per token, a concurrency or throughput, the
longest context, a time. Each cue makes the reply lead with that figure (bot.reply); the slots that read the
amounts are bot.understand.slots.workload_size's."""

from __future__ import annotations

from bot.understand.slots.base import rx

ASKS_COST = rx(
    r"\bhow\s+much\s+(?:does|do|would|will|is|to|for|money|would\s+it)\b|\bcosts?\b|\bcosting\b|\bprice\w*|"
    r"\bspend\w*|\bbill\w*|\bdollars?\b|\busd\b|\brmb\b|\bcny\b|\$|多少钱|费用|成本|花费|花多少|价格|价钱|租金|计费|"
    r"多少元|几块钱|贵不贵|租多少|月租|\bper\s+million\s+tokens\b"
)
ASKS_TOKEN_COST = rx(
    r"\bper\s+(?:1\s*)?(?:million|mn?|k|thousand|billion)\s*(?:output\s+|generated\s+|input\s+)?tokens?\b|"
    r"(?:\bcosts?|\bprice|\$|\busd|\bdollars?|\bcents?)\s+per\s+(?:output\s+|generated\s+)?tokens?\b|"
    r"/\s*(?:1\s*)?(?:m|mn|million|k)\s*tok(?:en)?s?\b|\$\s*/\s*(?:1\s*)?m?tok(?:en)?s?\b|"
    r"\b(?:cost|price)\s+(?:of\s+|per\s+)?(?:a\s+|one\s+)?tokens?\b|\btokens?\s+(?:cost|price)s?\b|"
    r"每\s*(?:百万|千|一?个|1\s*[mk]|[mk])\s*(?:个)?\s*(?:输出|輸出|生成|输入|輸入)?\s*tokens?|(?:百万|千)\s*tokens?\s*(?:的)?\s*(?:成本|费用|价格|多少钱)|"
    r"tokens?\s*(?:的)?\s*(?:成本|单价)|"
    r"\b(?:how\s+much|costs?|price|pay)\s+(?:is\s+it\s+|would\s+it\s+be\s+|do\s+i\s+pay\s+)?(?:for|of)\s+"
    r"(?:a|one|1|every)\s*(?:million|mn?|thousand|k)\s+(?:output\s+|generated\s+)?tokens?\b|"
    r"\b(?:a|one|1)\s*(?:million|mn?)\s+(?:output\s+|generated\s+)?tokens?\s+(?:cost|costs|price)\b"
)
"""A price per generated token asked: the serving plan then sizes the replica at full load."""
ASKS_MAX_RATE = rx(
    r"\bhow\s+many\s+(?:requests?|queries|calls|prompts)\s*(?:per|a|/|each)\s*(?:second|sec|s)\b|"
    r"\b(?:max(?:imum)?|highest|peak|sustain(?:ed|able)?)\s+(?:request\s+rate|rate\s+of\s+requests|qps|rps|"
    r"requests?\s*(?:per|a|/)\s*(?:second|sec|s))\b|\bwhat\s+(?:qps|rps)\b|"
    r"每秒\s*(?:能|可以|最多)?\s*(?:处理|扛|支撑|承载|接|跑)?\s*(?:几|多少)\s*(?:个|次)?\s*(?:请求|查询|调用)|"
    r"(?:最大|最高|能支撑的?)\s*(?:qps|rps|请求率|每秒请求数)"
)
"""The request rate a set-up sustains is asked ("how many requests per second can it sustain", "最大 QPS"): the
reply gives the rate its compute keeps up with, not a plan for one user."""
ASKS_CONCURRENCY = rx(
    r"\bhow\s+many\s+(?:more\s+)?(?:(?:concurrent|simultaneous|parallel|live|real[- ]?time|audio|voice|video)\s+){0,3}"
    r"(?:\d+(?:\.\d+)?\s*k\s*"
    r"(?:-?\s*(?:tokens?|context|ctx)\s*)?)?(?:users?|requests?|sessions?|streams?|people|sequences?|chats?|"
    r"conversations?|clients?)\b(?!\s*(?:per|a|/|each)\s*(?:second|sec|s)\b)|\bhow\s+many\s+(?:can\s+run\s+)?(?:concurrent(?:ly)?|simultaneous(?:ly)?|in\s+parallel)\b|"
    r"\bmax(?:imum)?\s+(?:concurrency|concurrent\s+(?:users?|requests?|sequences?|sessions?)|batch(?:\s+size)?)\b|"
    r"\bhow\s+much\s+concurrency\b|"
    r"\b(?:which|what)\s+(?:one\s+)?(?:holds?|serves?|supports?|fits?|handles?)\s+(?:the\s+)?more\s+"
    r"(?:concurrent\s+|simultaneous\s+|parallel\s+)?(?:users?|requests?|sequences?|sessions?|chats?)\b|"
    r"(?:哪个|哪一个|谁)\s*(?:能)?\s*(?:撑|扛|支持|容纳|服务|带)\s*(?:得)?\s*(?:比较|更)?多\s*(?:的)?\s*(?:并发|用户|请求|路)|"
    r"(?:支持|能|可以|扛|撑)(?:同时)?(?:服务)?多少(?:个|路)?(?:并发|用户|人|请求)|最大并发|并发(?:能)?(?:有|到|上)?多少|"
    r"最多\s*(?:能)?\s*(?:支持|有|跑|服务|带)?\s*(?:几|多少)\s*(?:个|路|位)?\s*(?:并发|用户|请求|人)|"
    r"(?:能|可以)\s*(?:同时)?\s*(?:跑|开|支持|带|扛|撑|服务)\s*(?:几|多少)\s*(?:个|路|位)?\s*(?:并发|用户|请求)|"
    r"(?:能|可以)\s*(?:同时)?\s*(?:扛|撑|跑|带|处理|转写|支持)\s*(?:得住)?\s*(?:几|多少)\s*路|"
    r"多少(?:个|路)?(?:并发|人同时|用户同时)|(?:服务|支持|带|扛|撑|承载)\s*(?:得了)?\s*(?:几|多少)\s*(?:个|位|名)?\s*"
    r"(?:并发|用户|使用者|人|请求)|(?:同时|并发)\s*(?:处理|跑|支持|服务|转写|识别)?\s*(?:几|多少)\s*路|"
    r"\bhow\s+many\s+tokens?\s*(?:/\s*s(?:ec)?|per\s+second|a\s+second)\s+(?:can|could|will|would|does|do)\b|"
    r"\b(?:max(?:imum)?|total|aggregate|peak)\s+throughput\b|\bwhat(?:'s|\s+is|\s+would\s+be)\s+the\s+throughput\b|"
    r"每秒(?:能|可以)?(?:处理|生成|输出|跑|吐)多少(?:个)?\s*tokens?|吞吐(?:量)?(?:大概|大约|约)?(?:能)?(?:有|是|到)?多少|最大吞吐"
)
"""How many sequences the set-up serves at once, or its throughput, is asked: the serving plan sizes one replica at
the most it holds."""
ASKS_OVERFLOW = rx(
    r"\bspill\w*|\booms?\b|\bout[-\s]of[-\s]memory\b|\b(?:memory|v?ram|gpu)\s+overflow\w*|\boverflows?\s+(?:to|into)\b|\brun\s+out\s+of\s+(?:v?ram|memory)\b|"
    r"爆显存|爆显|显存溢出|溢出到|(?:会|会不会)\s*(?:爆|溢出)|\boffload\w*\s+(?:to|into)\s+(?:the\s+)?(?:cpu|system\s+ram|ram)\b"
)
"""The fit asked the other way round ("will it spill to CPU?", "will it OOM?", "会爆显存吗"): a bare "Yes" or
"No" would answer the opposite question, so the verdict says "it fits" or "it does not fit" (audit 24 LOW-32)."""
ASKS_SPOT = rx(r"\bspot\b|\bpreemptible\b|\binterruptible\b|竞价|抢占式")
"""Spot (interruptible) capacity asked about ("how much does spot save", "竞价实例"): the reply gives the spot
price it knows, or says none is known (bot.reply.spot)."""
ASKS_RUNNING_COST = rx(r"\b(?:electricity|power\s+(?:bill|cost|draw|usage|consumption)|running\s+costs?|"
                       r"(?:cheaper|cost|costs|expensive)\s+to\s+run|to\s+run\s+(?:it\s+)?24\s*/\s*7)\b|"
                       r"电费|耗电|功耗|用电|运行成本")
"""What it costs to keep a machine running ("which is cheaper to run 24/7", "电费多少"): for a machine someone owns
that is its electricity, which the reply does not price (bot.reply.owned_running)."""
ASKS_MAX_CONTEXT = rx(
    r"\b(?:max(?:imum)?|longest|largest|biggest|most)\s+(?:possible\s+)?(?:context|ctx|sequence\s+length|"
    r"seq(?:uence)?[ _-]?len(?:gth)?|prompt(?:\s+length)?|input(?:\s+length)?|tokens?\s+of\s+context)\b|"
    r"\bhow\s+(?:long|big|large)\s+(?:a\s+|of\s+a\s+)?(?:context|ctx|prompt)\b|"
    r"\bhow\s+much\s+(?:context|ctx)\b(?![^.?!]{0,20}\b(?:do|does|should)\s+(?:i|we|you)\s+need)|"
    r"\bhow\s+many\s+tokens\s+(?:of\s+context\s+)?(?:can|will|would|fit)"
    r"(?![^.?!]{0,40}\b(?:train|pre-?train|fine-?tune|afford|generate|produce|process|buy|embed))|"
    r"最长.{0,4}(?:上下文|序列|输入|context)|(?:上下文|序列长度|context).{0,4}最(?:长|大|多)"
    r"(?!.{0,4}(?:并发|用户|请求|路|人))|"
    r"最大.{0,2}(?:上下文|序列长度|context)|能(?:跑|支持|放下|撑|开|用)到?\s*多(?:长|大|少)\s*(?:的)?\s*(?:上下文|context|token|ctx)|"
    r"(?:上下文|context|ctx)\s*(?:能|可以)\s*(?:开|跑|支持|用)?到?\s*多(?:长|大|少)"
)
ASKS_TIME = rx(
    r"\bhow\s+long\b|\bhow\s+many\s+(?:gpu[- ]?)?(?:hours|days|weeks)\b|\bgpu[- ]?hours\b|\btime\s+to\s+train\b|"
    r"\btraining\s+time\b|\bwall[- ]?clock\b|\bhow\s+fast\s+(?:can|will|would)\b.*\btrain|"
    r"要多久|多久|多长时间|多少时间|几天|几个小时|多少小时|耗时|训练时间|用时"
)


OFFLINE_JOB = rx(r"\boffline\b|\bbatch\s+(?:job|inference|processing|run|mode)\b|\bbulk\b|离线|批处理|批量处理|跑批")
"""An offline job ("Offline batch: 500,000 requests of …", "离线批处理"): its requests are counted work, run as the
engine batches them, not users at once."""

GROUP_JOIN = r"\bplus|\band|\bas\s+well\s+as|\bbesides|\balongside|另外|还有|還有|以及|加上|外加|再加上?|[+＋]"
"""Words joining a second group served to a first ("8 analysts at 128k plus about 40 short chats", "另外还有 40 个短
对话"): the samples slot leaves such chats to the batch slot, which reads them as that group (audit 28 M-55)."""
CHAT_NOUNS = r"chats?(?![a-z])|conversations?|dialogues?"
"""Chats, counted: a load served at once beside "at once" or another group; alone, a job's texts ("summarise 40
chats")."""


SERVICE_NAMED = rx(
    r"(?:推理|推论|推論|在线|線上|线上|api|模型|对外|對外|内部|內部|问答|問答|聊天|客服)\s*服[务務]|自建\s*(?:服务|服務|api)|"
    r"\b(?:inference|serving|model|chat|chatbot|production|prod|internal|api)\s+(?:service|server|endpoint|api|backend)s?\b|"
    r"\bself[- ]?host(?:ed|ing)?\s+(?:an?\s+)?(?:\S+\s+){0,3}?(?:service|api|endpoint)s?\b"
)
"""A model run as a service ("推论服务", "an inference service", "self-host a … API"): people send it requests,
so a serving engine runs it, not a notebook's one prompt at a time (audit 32 M-102: 1× A6000 at 9.9 tok/s)."""
