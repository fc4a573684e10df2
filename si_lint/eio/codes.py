"""The codes of the EIO rules, by what each needs (:mod:`si_lint.eio.lint`): one module,
every EIO module of the corpus, an EIO fixture. Kept apart so that registering the rules
(``si_lint/checks/eio.py``) imports none of them: a corpus without EIO documents never
runs one."""

MODULE_CODES = (
    "EIO101",
    "EIO104",
    "EIO105",
    "EIO106",
    "EIO107",
    "EIO108",
    "EIO109",
    "EIO110",
    "EIO111",
    "EIO114",
    "EIO116",
)
CORPUS_CODES = ("EIO102", "EIO103", "EIO112", "EIO113", "EIO115", "EIO117")
FIXTURE_CODES = ("EIO401",)
