"""SI010: a profile path that leads outside its place (SPEC §9 "Trust boundaries"): a
configured ``profile`` outside the corpus root, or a file of a profile directory that
resolves outside it. What is refused was never read (``config.load_config`` and
``profile.load_profile`` refuse it); this check only reports it, at the configuration's
``profile`` value or at the profile's file itself."""

from __future__ import annotations

from si_lint.checks.base import corpus_check
from si_lint.checks.implementations import profile_file_relpath
from si_lint.findings import Diag

CONFIG_HELP = (
    "move the profile directory under the corpus root and name it relative to the root; "
    "a profile from elsewhere can only be chosen on the command line (`--profile DIR`)"
)
FILE_HELP = "replace the link with the file itself, inside the profile directory"


@corpus_check("SI010", reads=("profile",))
def profile_paths(corpus, ctx):
    refused = getattr(ctx.config, "profile_refused", ())
    if refused:
        where, line, col, message = refused
        yield Diag("SI010", (), message, file=where, line=line, col=col, help=CONFIG_HELP)
    profile = ctx.profile
    for rel, why in getattr(profile, "refused", ()):
        path = profile_file_relpath(corpus, profile, rel)
        if path is not None:
            yield Diag(
                "SI010",
                (),
                f"`{rel}` {why}: not read",
                file=path,
                line=1,
                col=1,
                help=FILE_HELP,
            )
