"""DataFlow-style operators of the generation pipeline (see :mod:`.base` for the contract)."""

from .base import Operator, StepReport
from .compose import PatternComposer
from .dedup import Deduplicator
from .difficulty import DifficultyClassifier
from .execution_filter import ExecutionFilter
from .pool_writer import PoolWriter
from .quality import QualityCheck
from .questions import QuestionGenerator
from .schema_sampler import SchemaSampler
from .tagger import PatternTagger

__all__ = ["Operator", "StepReport", "SchemaSampler", "PatternComposer", "ExecutionFilter", "QuestionGenerator",
           "PatternTagger", "Deduplicator", "DifficultyClassifier", "PoolWriter", "QualityCheck"]
