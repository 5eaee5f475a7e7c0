"""The defaults of a training job the question leaves open: its data in tokens, its micro-batch, its method on
the engine named, the cards a sequence is split over, QLoRA's base format.

A fine-tune asked about in samples, steps or "compute-optimal" terms is sized in tokens, and each conversion is an
assumption the reply states. They follow trainers' and papers' conventions (Hugging Face Trainer, torchtune,
Chinchilla), not a server's, and are kept here apart from bot.reply.defaults.workload_for, which applies them.
"""

from __future__ import annotations

from bot.reply.model import Assumption
from bot.understand.question import Question
from bot.understand.slots.samples import SAMPLE_LENGTH_STATED_NOTE
from bot.understand.slots.task import COMPUTE_OPTIMAL_NOTE
from knowledge.engines import load_engine_profiles
from knowledge.schema import GPU
from rules import constants as C
from rules.types import Task, Workload

SHORT_SAMPLE_STEP_TOKENS = 2048
"""A training job whose samples are shorter than this gets a micro-batch of samples up to this many tokens a step
(TRAINER_MICRO_BATCH at most) when none is stated: a 2,048-token step is the sequence most recipes train at."""
TRAINER_MICRO_BATCH = 8
"""The most samples a micro-step is given by default: Hugging Face TrainingArguments' own per_device_train_batch_size
default (8)."""
COMPUTE_OPTIMAL_TOKENS_PER_PARAM = 20.0
"""Training tokens a parameter for a compute-optimal model: Hoffmann et al. 2022 ("Training Compute-Optimal Large
Language Models", Chinchilla), whose fits give about 20 (Chinchilla itself: 70B parameters on 1.4T tokens)."""


QLORA_QUANT = "nf4-dq"
"""QLoRA's base: NF4 with double-quantised scales (4.127 bits a weight) unless the question names the format."""


def samples_as_tokens(question: Question, workload: Workload) -> tuple[Question, Assumption | None]:
    """A training job counted in samples with no length ("on 10k samples"): its tokens at the job's context per
    sample, stated as an assumption — an upper bound (short samples padded to the longest in their batch come
    close to it; packed ones fill it exactly)."""
    if question.tokens or workload.task == "inference" or workload.model.arch == "diffusion":
        return question, None
    if COMPUTE_OPTIMAL_NOTE in question.notes and workload.task == "train":
        # "how many tokens should a 1B model be trained on (Chinchilla)": Hoffmann et al. 2022's ≈ 20 a parameter
        tokens = COMPUTE_OPTIMAL_TOKENS_PER_PARAM * workload.model.params_b * 1e9
        return (question.model_copy(update={"tokens": tokens}),
                Assumption(field="tokens", value=tokens, reason="compute-optimal"))
    if not question.training_samples and question.training_steps:
        # An optimizer step (HF Trainer's max_steps) is the micro batch sized × its gradient accumulation × the
        # data-parallel cards, each sequence at the context (audit 31 HIGH 80: steps × micro batch alone, 4–16×
        # short); a global batch stated was turned into that accumulation when read
        cards = question.gpu_count or 1
        tokens = (float(question.training_steps) * workload.batch * (question.grad_accumulation or 1) * cards
                  * workload.context)
        return (question.model_copy(update={"tokens": tokens}),
                Assumption(field="tokens", value=tokens, reason="steps-at-batch"))
    if not question.training_samples:
        return question, None
    tokens = float(question.training_samples) * (question.training_epochs or 1.0) * workload.context
    stated = SAMPLE_LENGTH_STATED_NOTE in question.notes and "context" in question.stated
    return (question.model_copy(update={"tokens": tokens}),
            Assumption(field="tokens", value=tokens, reason="samples-at-length" if stated else "samples-at-context"))


def engine_fine_tune_method(question: Question) -> Task | None:
    """The method a plain "fine-tune" gets on the engine the question names, when that engine's own default is
    LoRA or QLoRA (TrainingFact.fine_tune_method); None when the text said all parameters, named a method, or
    the engine trains every parameter by default."""
    if question.task != "train" or not question.generic_fine_tune or question.engine is None:
        return None
    profile = load_engine_profiles().get(question.engine)
    if profile is None or profile.training is None:
        return None
    return profile.training.fine_tune_method


def context_parallel_of(question: Question, task: str, gpu: GPU | None, assumptions: list[Assumption]) -> int:
    """The cards a training sequence is split over: as stated; named with no degree ("FSDP + context parallel"),
    the cards of one machine the question has (at most GPUS_PER_NODE, the NVLink domain ring attention and
    Ulysses run in), said under Assumed; 1 otherwise."""
    if question.context_parallel is None or task == "inference":
        return 1
    if question.context_parallel:
        return question.context_parallel
    degree = max(1, min(C.GPUS_PER_NODE, question.gpu_count or C.GPUS_PER_NODE))
    assumptions.append(Assumption(field="context_parallel", value=degree, reason="context-parallel-node"))
    return degree
