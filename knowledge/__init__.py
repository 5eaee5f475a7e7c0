"""The knowledge layer: validated facts about models, GPUs, cloud instances and FAQ answers.

Public surface (everything else is an implementation detail):

* loading: `load_knowledge`, `default_knowledge`, `KnowledgeBase`;
* schema: `Model`, `MoE`, `MLA`, `GPU`, `InstanceFamily`, `InstanceType`, `CloudProduct`, `FaqEntry`, ...;
* errors: `KnowledgeError`, `KnowledgeDataError`, `UnknownEntryError`;
* names: `NameIndex`, `LookupResult`, `Match`, `Mention`, `normalise`, `split_checkpoint_suffixes`,
  `CONFIDENT_SCORE`, `SUGGEST_SCORE`;
* `kb check`: `run_checks`, `Problem`, `check_summary`;
* `kb import`: `import_hf_config`, `write_user_entry`;
* prices: `Price`, `list_prices`, `import_skypilot_catalog`, `read_skypilot_catalog`, `write_user_prices`;
  exchange rates: `ExchangeRate`, `parse_fx`, `fx_from_env`.
"""

from knowledge.base import KnowledgeBase
from knowledge.check import Problem, run_checks
from knowledge.check import summary as check_summary
from knowledge.errors import KnowledgeDataError, KnowledgeError, UnknownEntryError
from knowledge.fx import ExchangeRate, fx_from_env, parse_fx
from knowledge.importer import import_hf_config, write_user_entry
from knowledge.loader import SHIPPED_DIR, USER_DIR_ENV, default_knowledge, load_knowledge
from knowledge.lookup import NameIndex
from knowledge.matches import CONFIDENT_SCORE, SUGGEST_SCORE, LookupResult, Match, Mention
from knowledge.names import normalise, split_checkpoint_suffixes
from knowledge.price_import import import_skypilot_catalog, read_skypilot_catalog, write_user_prices
from knowledge.prices import Price, list_prices
from knowledge.schema import (
    GPU,
    MLA,
    CloudProduct,
    Entry,
    FaqEntry,
    FaqQuestions,
    InstanceFamily,
    InstanceType,
    LocalisedText,
    Model,
    MoE,
)

__all__ = [
    "CONFIDENT_SCORE",
    "GPU",
    "MLA",
    "SHIPPED_DIR",
    "SUGGEST_SCORE",
    "USER_DIR_ENV",
    "CloudProduct",
    "Entry",
    "ExchangeRate",
    "FaqEntry",
    "FaqQuestions",
    "InstanceFamily",
    "InstanceType",
    "KnowledgeBase",
    "KnowledgeDataError",
    "KnowledgeError",
    "LocalisedText",
    "LookupResult",
    "Match",
    "Mention",
    "MoE",
    "Model",
    "NameIndex",
    "Price",
    "Problem",
    "UnknownEntryError",
    "check_summary",
    "default_knowledge",
    "fx_from_env",
    "import_hf_config",
    "import_skypilot_catalog",
    "list_prices",
    "load_knowledge",
    "normalise",
    "parse_fx",
    "read_skypilot_catalog",
    "run_checks",
    "split_checkpoint_suffixes",
    "write_user_entry",
    "write_user_prices",
]
