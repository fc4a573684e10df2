"""EIO criteria modules: the checklist evaluator (pure) and the module model used by the EIO rules."""
