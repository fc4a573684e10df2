"""si-lint: static analysis and linting for SI scenario corpora and EIO criteria modules."""

__version__ = "0.2.0"

#: where the source and the generated rule pages (docs/rules/CODE.md) live; SARIF ``helpUri``
#: and the wheel's project URLs point here (keep pyproject.toml's [project.urls] in step)
REPOSITORY_URL = "https://github.com/oasis-si/si-lint"


def rule_url(code: str) -> str:
    """The generated page of one rule, on the default branch (the repository has no
    release tags yet: a URL at ``v{__version__}`` would lead nowhere)."""
    return f"{REPOSITORY_URL}/blob/main/docs/rules/{code}.md"
