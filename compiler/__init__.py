"""The Rulewright compiler: load -> parse -> resolve -> check -> lower -> render (see docs/architecture.md)."""

__version__ = "0.1.0"
