"""The skill registry: every scenario template with its id, topic and names."""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, replace

from drill.catalog import Catalog
from drill.drills.build import Ctx
from drill.drills.model import Scenario


@dataclass(frozen=True)
class Skill:
    id: str
    topic: str
    en: str
    zh: str
    maker: str  # "module.function" inside drill.drills, imported on first use

    def make(self, ctx: Ctx) -> Scenario:
        module, _, function = self.maker.rpartition(".")
        return getattr(importlib.import_module(f"drill.drills.{module}"), function)(ctx)


_SKILLS = (
    Skill("peak-from-specs", "hardware", "Peak FLOP/s from the specs", "由规格算峰值算力",
          "skills_specs.peak_from_specs"),
    Skill("bandwidth-from-specs", "hardware", "Bandwidth from the specs", "由规格算显存带宽",
          "skills_specs.bandwidth_from_specs"),
    Skill("gemm-intensity", "intensity", "GEMM arithmetic intensity", "GEMM 算术强度",
          "skills_roofline.gemm_intensity"),
    Skill("gemv-intensity", "intensity", "GEMV arithmetic intensity", "GEMV 算术强度",
          "skills_roofline.gemv_intensity"),
    Skill("elementwise-intensity", "intensity", "Element-wise intensity", "逐元素算子的算术强度",
          "skills_roofline.elementwise_intensity"),
    Skill("conv-intensity", "intensity", "Convolution intensity", "卷积的算术强度",
          "skills_roofline.conv_intensity"),
    Skill("attention-intensity", "intensity", "Attention intensity", "注意力的算术强度",
          "skills_roofline.attention_intensity"),
    Skill("ridge-point", "roofline", "Ridge point", "拐点", "skills_roofline.ridge_point"),
    Skill("bound", "roofline", "Memory- or compute-bound", "带宽受限还是算力受限",
          "skills_roofline.bound"),
    Skill("attainable", "roofline", "Attainable throughput", "可达吞吐", "skills_roofline.attainable"),
    Skill("efficiency", "roofline", "Efficiency against the roof", "相对屋顶的效率",
          "skills_roofline.efficiency"),
    Skill("min-time", "roofline", "Minimum run time", "最短运行时间", "skills_roofline.min_time"),
    Skill("direction", "diagnosis", "Optimization direction", "优化方向", "skills_diag.direction"),
    Skill("sol-diagnosis", "diagnosis", "Speed-of-Light diagnosis", "Speed-of-Light 判读",
          "skills_diag.sol_diagnosis"),
    Skill("card-upgrade", "roofline", "Speed-up from a new card", "换卡的加速比",
          "skills_roofline.card_upgrade"),
    Skill("precision-change", "roofline", "Speed-up from lower precision", "降精度的加速比",
          "skills_roofline.precision_change"),
    Skill("decode-latency", "llm", "Decode latency lower bound", "解码延迟下界",
          "skills_llm.decode_latency"),
    Skill("kv-cache", "llm", "KV cache size", "KV 缓存大小", "skills_llm.kv_cache"),
    Skill("critical-batch", "llm", "Critical decode batch", "解码的临界 batch",
          "skills_llm.critical_batch"),
    Skill("ops-per-element", "roofline", "FLOPs per element to turn compute-bound",
          "逐元素算子变为算力受限所需的运算数", "skills_roofline.ops_per_element"),
    Skill("wave-quantization", "hardware", "Wave quantization", "波次量化（wave quantization）",
          "skills_roofline.wave_quantization"),
    Skill("sustained-clock", "hardware", "Sustained vs boost peak", "持续峰值与 boost 峰值",
          "skills_specs.sustained_clock"),
    Skill("spec-sheet", "hardware", "Reading a datasheet", "读懂数据手册", "skills_specs.spec_sheet"),
)
SKILLS: dict[str, Skill] = {s.id: s for s in _SKILLS}


class SkillError(LookupError):
    pass


def get(skill_id: str) -> Skill:
    try:
        return SKILLS[skill_id]
    except KeyError:
        raise SkillError(f"unknown skill {skill_id!r}; choose from: {', '.join(SKILLS)}") from None


def generate(skill_id: str, seed: int, difficulty: int, catalog: Catalog,
             gpu: str | None = None) -> Scenario:
    """The same skill, seed, difficulty and catalog give the same scenario on every machine."""
    skill = get(skill_id)
    rng = random.Random(f"{skill_id}:{difficulty}:{seed}")
    scenario = skill.make(Ctx(rng, difficulty, catalog, gpu))
    return replace(scenario, seed=seed)
